import { InvalidArgumentError, type Command } from 'commander';
import { DEFAULT_TLS_SEARCH_PATH, type MgmTlsMode, type MgmTlsOptions } from '../../../native-mgm/index.js';

/** What commander collects for the TLS options of one connecting command. */
export interface TlsCliOptions {
  ndbTlsSearchPath?: string;
  ndbMgmTls: MgmTlsMode;
  tlsCa?: string;
  tlsCert?: string;
  tlsKey?: string;
  mgmTlsCa?: string;
  mgmTlsCert?: string;
  mgmTlsKey?: string;
}

function tlsLevel(value: string): MgmTlsMode {
  if (value !== 'relaxed' && value !== 'strict') throw new InvalidArgumentError('expected relaxed or strict');
  return value;
}

/**
 * NDB's TLS options for a command that connects to management servers (`--ndb-tls-search-path`,
 * `--ndb-mgm-tls`, as ndb_mgm takes them), plus explicit CA/certificate/key files for an own PKI. `serve`
 * keeps `--tls-cert/--tls-key` for its HTTPS listener, so there the files are `--mgm-tls-*` (`filePrefix`).
 */
export function addMgmTlsOptions(command: Command, filePrefix: 'tls' | 'mgm-tls' = 'tls'): Command {
  return command
    .option('--ndb-tls-search-path <dirs>', `directories holding the cluster CA and the API node key and certificate under NDB's file names, ':'-separated (default: ${DEFAULT_TLS_SEARCH_PATH})`)
    .option('--ndb-mgm-tls <level>', 'relaxed: TLS when a certificate is found and the server offers it, else clear text; strict: never clear text', tlsLevel, 'relaxed')
    .option(`--${filePrefix}-ca <file>`, 'cluster CA certificate (PEM); overrides the search path')
    .option(`--${filePrefix}-cert <file>`, 'client certificate chain (PEM); overrides the search path')
    .option(`--${filePrefix}-key <file>`, 'client private key (PEM); overrides the search path');
}

/** The management connection's TLS settings from parsed options, read with the prefix they were added with. */
export function mgmTlsFrom(opts: TlsCliOptions, filePrefix: 'tls' | 'mgm-tls' = 'tls'): MgmTlsOptions {
  const own = filePrefix === 'tls';
  const ca = own ? opts.tlsCa : opts.mgmTlsCa;
  const cert = own ? opts.tlsCert : opts.mgmTlsCert;
  const key = own ? opts.tlsKey : opts.mgmTlsKey;
  return {
    mode: opts.ndbMgmTls,
    ...(opts.ndbTlsSearchPath !== undefined ? { searchPath: opts.ndbTlsSearchPath } : {}),
    ...(ca !== undefined ? { caFile: ca } : {}),
    ...(cert !== undefined ? { certFile: cert } : {}),
    ...(key !== undefined ? { keyFile: key } : {}),
  };
}

/** The same options as command-line words, to hand them on (desktop launcher → Electron). */
export function mgmTlsArgs(opts: TlsCliOptions): string[] {
  const t = mgmTlsFrom(opts);
  return [
    '--ndb-mgm-tls', t.mode,
    ...(t.searchPath !== undefined ? ['--ndb-tls-search-path', t.searchPath] : []),
    ...(t.caFile !== undefined ? ['--tls-ca', t.caFile] : []),
    ...(t.certFile !== undefined ? ['--tls-cert', t.certFile] : []),
    ...(t.keyFile !== undefined ? ['--tls-key', t.keyFile] : []),
  ];
}
