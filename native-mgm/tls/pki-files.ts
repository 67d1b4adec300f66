/**
 * NDB's own names for TLS files and how NDB tools find them (NDB 8.3+): a search path of directories, each file
 * looked up by a fixed name. Names are those of NDB's key tools (NodeCertificate.cpp `PkiFilenames`,
 * `ClusterCertAuthority`, and the manual's ndb_sign_keys page); a node's certificate file holds the node
 * certificate followed by the CA chain it trusts.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const PKI_FILES = {
  caCert: 'NDB-Cluster-cert',
  caKey: 'NDB-Cluster-private-key',
  apiCert: 'ndb-api-cert',
  apiKey: 'ndb-api-private-key',
  mgmdCert: 'ndb-mgm-server-cert',
  mgmdKey: 'ndb-mgm-server-private-key',
  dataNodeCert: 'ndb-data-node-cert',
  dataNodeKey: 'ndb-data-node-private-key',
} as const;

/**
 * NDB's compiled-in default for --ndb-tls-search-path on Unix, from the manual (`$HOME/ndb-tls`; on Windows
 * `$HOMEDIR/ndb-tls`). Not checked against the option definition in the sources read.
 */
export const DEFAULT_TLS_SEARCH_PATH = process.platform === 'win32' ? '$HOMEDIR/ndb-tls' : '$HOME/ndb-tls';

const SEPARATOR = process.platform === 'win32' ? ';' : ':';

/**
 * Splits a search path as NDB's TlsSearchPath does: `:`-separated (`;` on Windows), `.` alone is the current
 * directory, and the first `$NAME` of an item is replaced by that environment variable; an item whose expansion
 * is empty is dropped. `$HOME` falls back to the OS's idea of home so that it works where HOME is unset.
 */
export function expandSearchPath(path: string, env: NodeJS.ProcessEnv = process.env): string[] {
  if (path === '') return [];
  if (path === '.') return ['.'];
  const out: string[] = [];
  for (const item of path.split(SEPARATOR)) {
    const at = item.indexOf('$');
    if (at < 0) {
      out.push(item === '' ? '.' : item);
      continue;
    }
    const name = /^[A-Za-z0-9_]*/.exec(item.slice(at + 1))?.[0] ?? '';
    const value = name === '' ? '$' : (env[name] ?? (name === 'HOME' || name === 'HOMEDIR' ? homedir() : ''));
    const expanded = item.slice(0, at) + value + item.slice(at + 1 + name.length);
    if (expanded !== '') out.push(expanded);
  }
  return out;
}

/** The first directory of `dirs` holding `name`, as a full path; null when none does. */
export function findInSearchPath(dirs: readonly string[], name: string): string | null {
  for (const dir of dirs) {
    const path = join(dir, name);
    try {
      if (statSync(path).isFile()) return path;
    } catch {
      // not in this directory
    }
  }
  return null;
}
