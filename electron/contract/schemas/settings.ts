import { z } from 'zod';
import { FAILOVER_POLICIES } from '../page-safe/vocabulary.js';

export const SettingsSchema = z.object({
  pollIntervalMs: z.number().int().min(100).max(60_000),
  historySeconds: z.number().int().min(60).max(24 * 3600),
  notifications: z.boolean(),
  theme: z.enum(['dark', 'light', 'system']),
  /** Warn when a TLS certificate of a connection expires within this many days (default 30). */
  certExpiryWarnDays: z.number().int().min(0).max(3650).optional(),
  /** Whether management servers the configuration lists become failover targets (default `from-config`). */
  failover: z.enum(FAILOVER_POLICIES).optional(),
});

/** A connection's TLS as NDB tools take it (--ndb-mgm-tls, --ndb-tls-search-path, own CA/cert/key files). */
export const ProfileTlsSchema = z.object({
  mode: z.enum(['relaxed', 'strict']),
  searchPath: z.string().max(4000).optional(),
  caFile: z.string().max(4000).optional(),
  certFile: z.string().max(4000).optional(),
  keyFile: z.string().max(4000).optional(),
});

/** A profile's SQL nodes for ndbinfo, `mysql://USER@HOST[:PORT]` each (never a password in a URL: see SqlPasswordChangeSchema). */
export const ProfileSqlSchema = z.array(z.string().min(1).max(300)).max(8);

export const ProfileSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1).max(100),
  connectstring: z.string().min(1).max(2000),
  tls: ProfileTlsSchema.optional(),
  sql: ProfileSqlSchema.optional(),
});

/**
 * A change to a profile's SQL password, which crosses the contract only from page to engine: `set` keeps it
 * encrypted by the OS keychain (refused where there is none), `clear` forgets it; absent leaves it as it is.
 */
export const SqlPasswordChangeSchema = z.union([z.object({ set: z.string().min(1).max(1024) }).strict(), z.object({ clear: z.literal(true) }).strict()]);

export const SaveProfileSchema = ProfileSchema.extend({ sqlPassword: SqlPasswordChangeSchema.optional() });

/** A profile as the engine answers it: whether a password is stored, never the password. */
export const ProfileViewSchema = ProfileSchema.extend({ hasSqlPassword: z.boolean() });

/** Where a profile's SQL password can be kept: `os-keychain` (the desktop, encrypted by the OS) or nowhere. */
export const SECRET_STORE_KINDS = ['os-keychain', 'none'] as const;

export const AppInfoSchema = z.object({
  version: z.string(),
  host: z.enum(['desktop', 'serve', 'replay']),
  actionsEnabled: z.boolean(),
  /**
   * Whether this client may change the server: watched clusters, settings, profiles, acknowledging alerts.
   * Serve mode says false unless started with --allow-changes or --allow-actions; absent (desktop) means yes.
   */
  changesEnabled: z.boolean().optional(),
  /** Whether a profile's SQL password can be saved (the desktop's OS keychain); absent: none (serve, replay). */
  sqlPasswordStore: z.enum(SECRET_STORE_KINDS).optional(),
});

export type Settings = z.infer<typeof SettingsSchema>;
export type Profile = z.infer<typeof ProfileSchema>;
export type ProfileTls = z.infer<typeof ProfileTlsSchema>;
export type ProfileView = z.infer<typeof ProfileViewSchema>;
export type SaveProfile = z.infer<typeof SaveProfileSchema>;
export type SqlPasswordChange = z.infer<typeof SqlPasswordChangeSchema>;
export type SecretStoreKind = (typeof SECRET_STORE_KINDS)[number];
export type AppInfo = z.infer<typeof AppInfoSchema>;
