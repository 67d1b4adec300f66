import { readFileSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import { checkServeOptions, ServeConfigError } from '../access/auth.js';

export interface ListenOptions {
  port: number;
  host: string;
  token?: string;
  tokenFile?: string;
  allowChanges?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  metricsOnly?: boolean;
  allowHost?: string[];
}

/** Where the token may come from besides --token, which every user of the machine can read in `ps`. */
export const TOKEN_ENV = 'NDBTOP_TOKEN';

function port(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65_535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return Number(value);
}

function hostName(value: string, previous: string[] | undefined): string[] {
  if (!/^[a-z0-9.-]+$/i.test(value)) throw new InvalidArgumentError('expected a host name (letters, digits, dots and dashes)');
  return [...(previous ?? []), value];
}

/** --port/--host/--token, shared by `serve` and `replay`. */
export function addListenOptions(command: Command): Command {
  return command
    .option('--port <port>', 'HTTP port (0: any free port)', port, 8080)
    .option('--host <address>', 'address to listen on (::1 and [::1] for IPv6 loopback); anything but loopback requires a token', '127.0.0.1')
    .option('--token <token>', `secret every request and WebSocket must present (Bearer header or ?token=); visible in ps: prefer --token-file or ${TOKEN_ENV}`)
    .option('--token-file <file>', `read the token from FILE (first line); without --token or --token-file, ${TOKEN_ENV} is used`)
    .option('--allow-changes', 'let browsers change the server: watched clusters, settings, profiles, acknowledging alerts, maintenance windows (off by default)')
    .option('--tls-cert <file>', 'serve HTTPS and WSS with this certificate (PEM, with its chain); needs --tls-key')
    .option('--tls-key <file>', 'private key (PEM) of --tls-cert')
    .option('--allow-host <name>', 'a host name browsers use for this server (repeatable); others are refused, against DNS rebinding', hostName);
}

/** --token, else --token-file, else $NDBTOP_TOKEN; trailing whitespace (the file's newline) is not part of it. */
export function resolveToken(opts: ListenOptions, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (opts.token !== undefined) return opts.token;
  if (opts.tokenFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(opts.tokenFile, 'utf8');
    } catch (err) {
      throw new ServeConfigError(`cannot read --token-file ${opts.tokenFile}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    const token = (text.split(/\r?\n/)[0] ?? '').trim();
    if (token === '') throw new ServeConfigError(`--token-file ${opts.tokenFile} is empty`);
    return token;
  }
  const fromEnv = env[TOKEN_ENV];
  return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
}

/**
 * Settles where the token comes from and refuses a non-loopback bind without one before anything is started:
 * a usage error, exit code 2. Afterwards `opts.token` is the token in force.
 */
export function checkListenOptions(command: Command, opts: ListenOptions): void {
  try {
    opts.token = resolveToken(opts);
    checkServeOptions(opts.host, opts.token);
    if ((opts.tlsCert === undefined) !== (opts.tlsKey === undefined)) throw new ServeConfigError('--tls-cert and --tls-key go together');
  } catch (err) {
    if (err instanceof ServeConfigError) command.error(`error: ${err.message}`, { exitCode: 2, code: 'ndbtop.serveConfig' });
    throw err;
  }
}

