import type { X509Certificate } from 'node:crypto';
import type { ClusterModel } from '../cluster-model.js';
import type { ClusterLogState } from '../wire/cluster-log.js';
import type { Args } from '../wire/request-parser.js';
import type { SessionHandle } from '../wire/session.js';

/** What one management server offers its command handlers. */
export interface MgmdContext {
  readonly nodeId: number;
  readonly model: ClusterModel;
  /** Packed version this server runs. */
  readonly version: number;
  readonly clusterLog: ClusterLogState;
  /** Command sessions alive on this server, for `get session` and `list sessions`. */
  sessions(): ReadonlyArray<{ id: number; parsing: boolean; tls: boolean; address: string; peerCert: X509Certificate | null }>;
  /** Connections this server accepted since it started (`get tls stats`). */
  readonly accepted: number;
  /** Sessions upgraded to TLS, and commands refused for want of TLS, since it started. */
  readonly upgraded: number;
  readonly authfail: number;
  /** Whether the server has TLS keys (else `start tls` answers `Failed`). */
  readonly tlsAvailable: boolean;
}

export interface CommandContext {
  mgmd: MgmdContext;
  session: SessionHandle;
  args: Args;
}

export type CommandHandler = (ctx: CommandContext) => Promise<string> | string;

export function intArg(ctx: CommandContext, name: string, fallback = 0): number {
  const v = ctx.args.get(name);
  return typeof v === 'number' ? v : fallback;
}

export function stringArg(ctx: CommandContext, name: string): string | undefined {
  const v = ctx.args.get(name);
  return typeof v === 'string' ? v : undefined;
}

/** 0/1 flags: any non-zero value counts as set, as in the server's `if (flag)`. */
export function flagArg(ctx: CommandContext, name: string): boolean {
  return intArg(ctx, name) !== 0;
}
