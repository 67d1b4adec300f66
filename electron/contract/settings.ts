import { z } from 'zod';

export const SettingsSchema = z.object({
  pollIntervalMs: z.number().int().min(100).max(60_000),
  historySeconds: z.number().int().min(60).max(24 * 3600),
  notifications: z.boolean(),
  theme: z.enum(['dark', 'light', 'system']),
});

export const ProfileSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1).max(100),
  connectstring: z.string().min(1).max(2000),
});

export const AppInfoSchema = z.object({
  version: z.string(),
  host: z.enum(['desktop', 'serve', 'replay']),
  actionsEnabled: z.boolean(),
  /**
   * Whether this client may change the server: watched clusters, settings, profiles, acknowledging alerts.
   * Serve mode says false unless started with --allow-changes or --allow-actions; absent (desktop) means yes.
   */
  changesEnabled: z.boolean().optional(),
});

export type Settings = z.infer<typeof SettingsSchema>;
export type Profile = z.infer<typeof ProfileSchema>;
export type AppInfo = z.infer<typeof AppInfoSchema>;
