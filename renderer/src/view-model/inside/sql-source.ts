import type { NdbinfoView } from '../../contract.js';
import { formatDuration } from '../format.js';

export type SqlTone = 'ok' | 'warn' | 'bad' | 'busy';

export interface SqlSourceSummary {
  word: string;
  tone: SqlTone;
  /** The SQL node answering, its version and whether the link is encrypted: one line. */
  where: string;
  since: string;
  missing: string | null;
  lastError: string | null;
  /** What watching costs the SQL node, and what the budget did about it; null before the first measure. */
  load: string | null;
  /** Readings the budget stretched or paused, by table: "cpu every 2 s (mean 310 ms)". */
  readings: string[];
}

const WORDS: Record<NdbinfoView['source']['status'], [string, SqlTone]> = {
  connecting: ['CONNECTING', 'busy'],
  up: ['UP', 'ok'],
  failing: ['FAILING', 'bad'],
  lost: ['LOST — RETRYING', 'bad'],
  closed: ['CLOSED', 'bad'],
};

const ms = (v: number): string => (v >= 1000 ? `${+(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`);

/** The SQL source (ndbinfo) as the Settings view states it; never the password, which the engine does not send. */
export function sqlSourceSummary(view: NdbinfoView, now: number): SqlSourceSummary {
  const { source, selfLoad } = view;
  const [word, tone] = WORDS[source.status];
  const where = [source.sqlNode ?? 'no SQL node answered yet', source.serverVersion, source.sqlNode ? (source.tls ? 'TLS' : 'not encrypted') : null].filter((s): s is string => !!s).join(' · ');
  const failovers = source.failovers > 0 ? ` · ${source.failovers} failover${source.failovers === 1 ? '' : 's'}` : '';
  const readings = selfLoad
    ? Object.entries(selfLoad.readings)
        .filter(([, r]) => r.paused || selfLoad.stretch > 1)
        .map(([name, r]) => `${name} ${r.paused ? 'paused' : `every ${ms(r.intervalMs)}`}${r.meanMs === null ? '' : ` (mean ${ms(r.meanMs)})`}`)
    : [];
  return {
    word,
    tone: tone === 'ok' && selfLoad?.shedding ? 'warn' : tone,
    where,
    since: `${formatDuration(Math.max(0, now - source.since))}${failovers}`,
    missing: source.missing.length > 0 ? `this SQL node has no ${source.missing.join(', ')}: those figures stay empty` : null,
    lastError: source.lastError,
    load: selfLoad
      ? `queries take ${(selfLoad.share * 100).toFixed(1)} % of the SQL node's time (${selfLoad.queries} so far)${selfLoad.shedding ? `; over budget: readings ${selfLoad.stretch}× apart, the least needed paused` : selfLoad.stretch > 1 ? `; readings ${selfLoad.stretch}× apart to stay in budget` : ''}`
      : null,
    readings,
  };
}

/** `mysql://USER@HOST:PORT` for each ticked candidate, and what was typed, without repeats. */
export function profileSqlUrls(user: string, hosts: readonly string[], typed: string): string[] {
  if (user.trim() === '' && hosts.length > 0) throw new Error('type the MySQL user for the SQL nodes ticked');
  const picked = hosts.map((url) => url.replace('mysql://', `mysql://${encodeURIComponent(user.trim())}@`));
  const extra = typed.split(/[\s,]+/).filter((u) => u.length > 0);
  return [...new Set([...picked, ...extra])];
}
