import type { NdbinfoFeature } from '../../../contract/schemas/ndbinfo.js';
import { ndbReleaseOf, releaseText, sinceOf, atLeast, type NdbRelease } from '../../../../ndbinfo/schema/versions.js';

/** What discovery told of the SQL node, as the source's `up` state carries it. */
export interface SchemaFound {
  serverVersion: string;
  /** Wanted tables it lacks. */
  missing: readonly string[];
  /** Columns of present tables it lacks, as `table.column`. */
  absentColumns: readonly string[];
}

interface FeatureNeed {
  key: NdbinfoFeature['key'];
  label: string;
  table: string;
  /** The table's columns it needs besides those every release has. */
  columns: readonly string[];
}

/** The figures only some releases give, and what each needs. */
const NEEDS: readonly FeatureNeed[] = [
  { key: 'host-cpu', label: 'host CPU', table: 'cpudata', columns: [] },
  { key: 'send-buffers', label: 'send buffers', table: 'transporter_details', columns: ['sendbuffer_used_bytes', 'sendbuffer_alloc_bytes'] },
];

/** "the reference dates it to NDB 8.0.23 (Linux only)", or says that it does not date it. */
function dating(name: string): { words: string; since: NdbRelease | null } {
  const known = sinceOf(name);
  if (!known) return { words: 'the ndbinfo reference does not say which release brought it', since: null };
  return { words: `NDB ${releaseText(known.since)} or later${known.note ? `, ${known.note}` : ''}`, since: known.since };
}

/** Why the SQL node lacks `name`, given the release it runs (the reference's dating against it). */
function why(label: string, name: string, found: SchemaFound, release: NdbRelease | null): string {
  const d = dating(name);
  const runs = release ? `this SQL node runs NDB ${releaseText(release)}` : `this SQL node's NDB release is not known (it says "${found.serverVersion}")`;
  const after = release && d.since && atLeast(release, d.since) ? ', so it is hidden from this user or left out of this build' : '';
  return `${label}: needs ndbinfo.${name} (${d.words}); ${runs}${after}.`;
}

/**
 * For each release-dependent figure, whether this SQL node gives it and, if not, the sentence that says why: the
 * one derivation the Threads and Redo views (and anything else) show.
 */
export function featuresOf(found: SchemaFound): NdbinfoFeature[] {
  const release = ndbReleaseOf(found.serverVersion);
  return NEEDS.map((need) => {
    const source = `ndbinfo.${need.table}`;
    const lacking = found.missing.includes(need.table) ? need.table : need.columns.map((c) => `${need.table}.${c}`).find((c) => found.absentColumns.includes(c));
    return { key: need.key, label: need.label, source, available: lacking === undefined, why: lacking === undefined ? null : why(need.label, lacking, found, release) };
  });
}

/** The SQL node's NDB release in words, null when its version string does not tell. */
export function ndbVersionOf(serverVersion: string): string | null {
  const r = ndbReleaseOf(serverVersion);
  return r && releaseText(r);
}
