import type { TlsView } from '../../../contract/schemas/tls.js';
import { AuthorizationError, TlsError, type MgmClient, type MgmTlsOptions, type TlsSessionInfo } from '../../../../native-mgm/index.js';

/** `get tls stats` and `list certs` change slowly; asking every half minute is plenty for the TLS panel. */
const DIAGNOSTICS_EVERY_MS = 30_000;
export const DEFAULT_CERT_EXPIRY_WARN_DAYS = 30;

/**
 * The TLS side of one cluster's connection, for the header chip, the mgmd details and the TLS panel: how the
 * command session is secured, the latest TLS failure (kept until a session works again, so the UI says what is
 * wrong instead of retrying silently), and the server's TLS counters and client certificates, read slowly.
 */
export class TlsWatch {
  private session: TlsSessionInfo | null = null;
  private problem: string | null = null;
  private stats: TlsView['stats'] = null;
  private certs: TlsView['certs'] = [];
  private statsAt: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private client: MgmClient | null = null;

  constructor(
    private readonly options: MgmTlsOptions | undefined,
    private readonly warnDays: number,
    private readonly changed: () => void,
  ) {}

  view(): TlsView {
    const s = this.session;
    return {
      mode: this.options?.mode ?? 'off',
      secured: s?.secured ?? false,
      clearTextReason: s?.clearTextReason ?? null,
      protocol: s?.protocol ?? null,
      server: s?.server ?? null,
      client: s?.client ?? null,
      problem: this.problem,
      expiryWarnDays: this.warnDays,
      stats: this.stats,
      certs: this.certs,
      statsAt: this.statsAt,
    };
  }

  /** The command link came up: take its TLS picture and refresh the diagnostics now and then. */
  connected(client: MgmClient): void {
    this.client = client;
    this.session = client.tls;
    this.problem = null;
    if (!this.timer) {
      this.timer = setInterval(() => void this.refresh(), DIAGNOSTICS_EVERY_MS);
      this.timer.unref();
    }
    void this.refresh();
  }

  /** Remembers TLS failures (ours or the server's "Requires TLS"); other errors are not TLS's business. */
  failed(err: unknown): void {
    if (!(err instanceof TlsError) && !(err instanceof AuthorizationError)) return;
    this.problem = err instanceof AuthorizationError ? `${err.message}: the management server requires TLS and this session has none (no certificate found?)` : err.message;
    this.changed();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async refresh(): Promise<void> {
    const client = this.client;
    // On a clear-text session of a TLS-only server these are refused, and servers before 8.3 lack them.
    if (!client || !this.session?.secured) return;
    try {
      const [stats, certs] = [await client.getTlsStats(), await client.listCerts()];
      this.stats = stats;
      this.certs = certs;
      this.statsAt = Date.now();
      this.changed();
    } catch {
      // Diagnostics only: the poll reports a lost connection.
    }
  }
}
