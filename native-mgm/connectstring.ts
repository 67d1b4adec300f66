/**
 * Connect strings as NDB tools accept them (spec §2.1, mgmapi LocalConfig), and where they come from.
 *
 * Deliberately stricter than mgmapi where its leniency hides a mistake: an empty host or port, a port with a
 * leading zero (C reads it as octal), a sign or space inside a number, port 0 for a management server, and a
 * several-colon host that is not an IPv6 address (usually `addr:port` meant as `[addr]:port`) are rejected with
 * the reason, instead of connecting somewhere unexpected.
 */
import { readFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { join } from 'node:path';
import { ConnectstringError, formatHostPort } from './errors.js';

export const DEFAULT_MGM_PORT = 1186;
const MAX_NUMBER = 65535;
const DEFAULT_CONNECTSTRING = `host=localhost:${DEFAULT_MGM_PORT}`;

export interface HostPort {
  host: string;
  port: number;
}

export interface MgmHost extends HostPort {
  /** Local address to bind before connecting; port 0 = any. */
  bindAddress: HostPort | null;
}

export interface ParsedConnectstring {
  /** Kept for display only: a monitor does not allocate a node id. */
  nodeId: number | null;
  hosts: MgmHost[];
  /** `file=` entries, kept because they are valid, but mgmapi's connect loop skips them and so do we. */
  files: string[];
}

export type ConnectstringSource = 'explicit' | 'env' | 'file' | 'default';

export interface ResolvedConnectstring extends ParsedConnectstring {
  source: ConnectstringSource;
  /** The connect string actually parsed (for `file`, the file's lines joined with `;`). */
  text: string;
}

type ItemKind = 'nodeid' | 'bind' | 'host' | 'file' | 'comment';

// Same order as mgmapi's table: the first prefix that matches decides.
const PREFIXES: ReadonlyArray<readonly [string, ItemKind]> = [
  ['nodeid=', 'nodeid'],
  ['bind-address=', 'bind'],
  ['host=', 'host'],
  ['OwnProcessId ', 'nodeid'],
  ['file://', 'file'],
  ['file=', 'file'],
  ['host://', 'host'],
  ['mgmd=', 'host'],
  ['#', 'comment'],
];
// An item without a known prefix is a management server.
const BARE_HOST = ['', 'host'] as const;

const KNOWN_PREFIXES = 'nodeid=, bind-address=, host=, mgmd=, host://, file=, file://';

/** Why one item is bad; turned into a ConnectstringError naming the item and its position. */
class ItemRejected extends Error {}

function reject(reason: string): never {
  throw new ItemRejected(reason);
}

/** C `strtol(text, &end, 0)` that must consume the whole text, minus the forms that are almost always mistakes. */
function parseNumber(text: string, what: string): number {
  if (text === '') reject(`${what} is empty`);
  let value: number;
  if (/^0[xX][0-9a-fA-F]+$/.test(text)) value = Number.parseInt(text.slice(2), 16);
  else if (/^0[0-9]+$/.test(text)) {
    const inC = /^0[0-7]+$/.test(text) ? `read as octal (= ${Number.parseInt(text, 8)})` : 'reject as bad octal';
    reject(`${what} "${text}" has a leading zero, which NDB tools ${inC}; write it without the leading zero`);
  } else if (/^[0-9]+$/.test(text)) value = Number.parseInt(text, 10);
  else reject(`${what} "${text}" is not a number (decimal, or hex with 0x)`);
  if (value > MAX_NUMBER) reject(`${what} ${text} is out of range 0..${MAX_NUMBER}`);
  return value;
}

function checkHostName(name: string): string {
  if (name === '') reject('no host name');
  const prefix = /^([^=:[]*=)/.exec(name)?.[1];
  if (prefix !== undefined) {
    const caseHint = PREFIXES.some(([p]) => p.toLowerCase() === prefix.toLowerCase())
      ? ' (prefixes are case-sensitive)'
      : '';
    reject(`unknown prefix "${prefix}"${caseHint}; known prefixes: ${KNOWN_PREFIXES}`);
  }
  if (name.includes('#')) reject('"#" starts a comment only at the start of an item');
  if (!/^[\p{L}\p{N}._-]+$/u.test(name)) reject(`"${name}" is not a valid host name`);
  return name;
}

/** Splits one address without spaces, like Ndb_split_string_address_port; `port` is undefined when absent. */
function splitAddress(text: string): { host: string; port: string | undefined } {
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) reject('"[" without a closing "]"');
    const host = text.slice(1, close);
    if (!isIPv6(host)) reject(`"${host}" in brackets is not an IPv6 address`);
    const rest = text.slice(close + 1);
    if (rest === '') return { host, port: undefined };
    if (!rest.startsWith(':')) reject(`unexpected "${rest}" after "]"; write [address]:port`);
    return { host, port: rest.slice(1) };
  }
  const schemeLike = /^[^:/]*:\/\//.exec(text)?.[0];
  if (schemeLike !== undefined) reject(`unknown prefix "${schemeLike}"; known prefixes: ${KNOWN_PREFIXES}`);
  const colon = text.indexOf(':');
  if (colon < 0) return { host: checkHostName(text), port: undefined };
  if (text.indexOf(':', colon + 1) < 0) return { host: checkHostName(text.slice(0, colon)), port: text.slice(colon + 1) };
  // mgmapi takes any text with several colons as a host without port; only a real IPv6 address can work.
  if (!isIPv6(text)) reject('several colons but not an IPv6 address; give an IPv6 address a port as [address]:port');
  return { host: text, port: undefined };
}

function parseHostPort(value: string, defaultPort: number, minPort: number, what: string): HostPort {
  if (value === '') reject(`no ${what} given`);
  if (value.startsWith(' ') || value.endsWith(' ')) {
    reject('spaces are not trimmed and become part of the item; separate items with "," or ";" only');
  }
  // "host port" is the server's own spelling; the host part must then carry no port of its own.
  const space = value.indexOf(' ');
  const hostText = space < 0 ? value : value.slice(0, space);
  const { host, port } = splitAddress(hostText);
  let portText = port;
  if (space >= 0) {
    if (port !== undefined) reject(`"${hostText}" already has a port, so "${value.slice(space + 1).trimStart()}" cannot be one`);
    portText = value.slice(space).replace(/^ +/, '');
  }
  if (portText === undefined) return { host, port: defaultPort };
  const number = parseNumber(portText, 'port');
  if (number < minPort) reject(`port ${portText} cannot be used for a ${what}`);
  return { host, port: number };
}

/** Parses one connect string; throws ConnectstringError naming the first bad item and its 0-based position. */
export function parseConnectstring(text: string): ParsedConnectstring {
  const result: ParsedConnectstring = { nodeId: null, hosts: [], files: [] };
  let defaultBind: HostPort | null = null;
  for (const match of text.matchAll(/[^,;]+/g)) {
    const item = match[0];
    try {
      const [prefix, kind] = PREFIXES.find(([p]) => item.startsWith(p)) ?? BARE_HOST;
      const value = item.slice(prefix.length);
      switch (kind) {
        case 'nodeid':
          if (result.nodeId !== null) reject('the node id is given more than once');
          result.nodeId = parseNumber(value, 'node id');
          break;
        case 'bind': {
          const bind = parseHostPort(value, 0, 0, 'bind address');
          const last = result.hosts.at(-1);
          if (last === undefined) defaultBind = bind;
          else last.bindAddress = bind;
          break;
        }
        case 'host':
          result.hosts.push({ ...parseHostPort(value, DEFAULT_MGM_PORT, 1, 'management server'), bindAddress: defaultBind && { ...defaultBind } });
          break;
        case 'file':
          result.files.push(value);
          break;
        case 'comment':
          break;
      }
    } catch (error) {
      if (!(error instanceof ItemRejected)) throw error;
      throw new ConnectstringError(`Unexpected entry: "${item}" at position ${match.index}: ${error.message}`, text, match.index);
    }
  }
  return result;
}

/** One line per management server, in a form parseConnectstring reads back to the same list. */
export function formatConnectstring(hosts: ReadonlyArray<MgmHost>): string {
  return hosts
    .map(({ host, port, bindAddress }) => {
      if (bindAddress === null) return formatHostPort(host, port);
      const bind =
        bindAddress.port !== 0 ? formatHostPort(bindAddress.host, bindAddress.port)
        : bindAddress.host.includes(':') ? `[${bindAddress.host}]`
        : bindAddress.host;
      return `${formatHostPort(host, port)},bind-address=${bind}`;
    })
    .join(',');
}

function parseFrom(text: string, label: string): ParsedConnectstring {
  let parsed: ParsedConnectstring;
  try {
    parsed = parseConnectstring(text);
  } catch (error) {
    if (!(error instanceof ConnectstringError)) throw error;
    throw new ConnectstringError(`${label}: ${error.message}`, error.input, error.position);
  }
  if (parsed.hosts.length === 0) throw new ConnectstringError(`${label} "${text}" names no management server`, text, 0);
  return parsed;
}

/** An `Ndb.cfg` as mgmapi reads it: trimmed lines, neither empty nor starting with `#`, joined with `;`. */
function readNdbCfg(path: string): string | null {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch {
    // mgmapi moves on to the next place when the file cannot be opened, whatever the reason.
    return null;
  }
  return content
    .split('\n')
    .map((line) => line.replace(/^[ \t\r]+|[ \t\r]+$/g, ''))
    .filter((line) => line !== '' && !line.startsWith('#'))
    .join(';');
}

function fallback(env: NodeJS.ProcessEnv, cwd: string): ResolvedConnectstring {
  const fromEnv = env['NDB_CONNECTSTRING'];
  if (fromEnv !== undefined && fromEnv !== '') {
    return { ...parseFrom(fromEnv, 'NDB_CONNECTSTRING'), source: 'env', text: fromEnv };
  }
  const ndbHome = env['NDB_HOME'];
  const places = ndbHome !== undefined && ndbHome !== '' ? [join(ndbHome, 'Ndb.cfg'), join(cwd, 'Ndb.cfg')] : [join(cwd, 'Ndb.cfg')];
  for (const path of places) {
    const text = readNdbCfg(path);
    if (text !== null) return { ...parseFrom(text, `Reading ${path}`), source: 'file', text };
  }
  return { ...parseConnectstring(DEFAULT_CONNECTSTRING), source: 'default', text: DEFAULT_CONNECTSTRING };
}

/**
 * Where the connect string comes from, first match wins (spec §2.1): the explicit string, unless it names no
 * host; else NDB_CONNECTSTRING; else Ndb.cfg in NDB_HOME, then in the current directory; else localhost:1186.
 * A node id from an explicit string without hosts is kept if the fallback gives none.
 */
export function resolveConnectstring(
  options: { explicit?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): ResolvedConnectstring {
  const { explicit, env = process.env, cwd = process.cwd() } = options;
  if (explicit === undefined || explicit === '') return fallback(env, cwd);
  const parsed = parseConnectstring(explicit);
  if (parsed.hosts.length > 0) return { ...parsed, source: 'explicit', text: explicit };
  const found = fallback(env, cwd);
  return { ...found, nodeId: found.nodeId ?? parsed.nodeId };
}
