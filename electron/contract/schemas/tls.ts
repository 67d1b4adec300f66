import { z } from 'zod';

export const CertViewSchema = z.object({
  subject: z.string(),
  issuer: z.string(),
  serial: z.string(),
  validFrom: z.number().int(),
  validTo: z.number().int(),
  /** Host names the certificate is bound to; empty = not bound. */
  hostnames: z.array(z.string()),
});

/** `get tls stats` of the management server in use (spec §9). */
export const TlsStatsViewSchema = z.object({
  accepted: z.number().int(),
  upgraded: z.number().int(),
  current: z.number().int(),
  tls: z.number().int(),
  authfail: z.number().int(),
});

/** One line of `list certs`: which session uses which client certificate. */
export const SessionCertViewSchema = z.object({
  session: z.number().int(),
  address: z.string(),
  serial: z.string(),
  name: z.string(),
  expires: z.string(),
});

/**
 * How the management connection is secured. `mode` is what was asked for (`off` when TLS is not configured);
 * `problem` is the latest TLS failure (no certificate, expired, CA mismatch, …) until a secured session works.
 */
export const TlsViewSchema = z.object({
  mode: z.enum(['off', 'relaxed', 'strict']),
  secured: z.boolean(),
  clearTextReason: z.string().nullable(),
  protocol: z.string().nullable(),
  server: CertViewSchema.nullable(),
  client: CertViewSchema.nullable(),
  problem: z.string().nullable(),
  /** A certificate expiring within this many days raises a warning. */
  expiryWarnDays: z.number().int().nonnegative(),
  stats: TlsStatsViewSchema.nullable(),
  certs: z.array(SessionCertViewSchema),
  /** When stats and certs were last read (they are refreshed slowly). */
  statsAt: z.number().int().nullable(),
});

export type CertView = z.infer<typeof CertViewSchema>;
export type TlsView = z.infer<typeof TlsViewSchema>;
