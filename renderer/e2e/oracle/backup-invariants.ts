import type { BackupStatus, RunningBackup } from '../../../electron/contract/index.js';
import { ENGINE_READS, type BackupTruth, type Frame, type Violation } from './frame.js';
import { clock, either, readBytes, readCount, readDuration, readRate, within } from './shown-figures.js';

/** How long the engine may take to hear what the simulator did: a poll (500 ms), its reply, the settle. */
const HEARD_MS = 1500;
/** How far apart the simulator's clock (performance.now) and the engine's (Date.now) may read. */
const CLOCKS_MS = 50;
/** How far the engine's rate may be from the disks' while every node still writes (it is measured from the start). */
const RATE_SHARE = 0.1;
/**
 * How late the engine may stamp an event it receives (events carry no time, §6.3: stamped on receipt): the stream is
 * read at most every 100 ms, and a loaded loop reads later. A rate measured over the backup's first seconds moves by
 * this over its span (at load ~15: 285 MB/s against the disks' 257 MB/s 1.6 s in).
 */
const STAMP_LATE_MS = 250;

/** What the page may be showing of the engine's backups: its reads around the frame and what it pushed since the last. */
const backupsOf = (frame: Frame, earlier: readonly Frame[]): Array<BackupStatus | null> => [
  ...ENGINE_READS(frame, earlier).map((s) => s.backups ?? null),
  ...(frame.pushedBackups ?? []),
];

/** The Backups view's running backup and past ones, against the engine's reads the page may be showing. */
export function backupShowsEngine(frame: Frame, earlier: readonly Frame[]): Violation[] {
  const shown = frame.dom.backups;
  if (!shown) return [];
  const id = 'backup-shows-engine';
  const out: Violation[] = [];
  const reads = backupsOf(frame, earlier);
  const v = (said: string, against: string): number => out.push({ invariant: id, said: `Backups view: ${said}`, against: `engine: ${against}` });
  const running = shown.running;
  const engineRuns = reads.map((b) => b?.running ?? null);
  if (running) {
    const runs = engineRuns.filter((r): r is RunningBackup => r?.backupId === running.backupId);
    if (runs.length === 0) v(`backup ${running.backupId} running`, either(engineRuns.map((r) => (r ? `backup ${r.backupId} running` : 'none running')), ', then '));
    // Begun between the reads (or on the first frame, with no earlier read to bound the page's lag): the page may show
    // any figure the backup had meanwhile, from its start on.
    else if (runs.length === engineRuns.length && earlier.length > 0) {
      const sum = (r: RunningBackup, k: 'bytes' | 'records'): number => r.nodes.reduce((s, n) => s + n[k], 0);
      const bytes = readBytes(running.written);
      if (!bytes || !within(bytes, runs.map((r) => sum(r, 'bytes')))) v(`written "${running.written}"`, `${either(runs.map((r) => String(sum(r, 'bytes'))))} B written`);
      const records = readCount(running.written, 'records');
      if (records === null || !within({ value: records, slack: 0 }, runs.map((r) => sum(r, 'records')))) v(`written "${running.written}"`, `${either(runs.map((r) => String(sum(r, 'records'))))} records`);
      const of = readBytes(running.written, 'of about ');
      const toBackup = runs.map((r) => r.toBackupBytes ?? null);
      if (of ? !within(of, toBackup.filter((t): t is number => t !== null)) : toBackup.every((t) => t)) v(`written "${running.written}"`, `about ${either(toBackup.map(String))} B to back up`);
      const rates = runs.map((r) => r.bytesPerSec);
      const rate = readRate(running.rate);
      if (rate ? !within(rate, rates.filter((r): r is number => r !== null)) : !rates.includes(null)) v(`rate "${running.rate}"`, either(rates.map((r) => (r === null ? 'no rate yet' : `${Math.round(r)} B/s`))));
      out.push(...etaShowsEngine(running, runs));
      for (const row of running.nodes) {
        const nodes = runs.flatMap((r) => r.nodes.filter((n) => n.nodeId === row.nodeId));
        const written = readBytes(row.written);
        const rowRecords = readCount(row.records);
        const ofNode = readBytes(row.of);
        const targets = nodes.map((n) => n.toBackupBytes ?? null);
        const agrees =
          nodes.length > 0 &&
          written !== null &&
          within(written, nodes.map((n) => n.bytes)) &&
          rowRecords !== null &&
          within({ value: rowRecords, slack: 0 }, nodes.map((n) => n.records)) &&
          (ofNode ? within(ofNode, targets.filter((t): t is number => t !== null)) : targets.some((t) => !t));
        if (!agrees) v(`node ${row.nodeId}: ${row.written} of ${row.of}, ${row.records} records`, nodes.length === 0 ? `no report from node ${row.nodeId}` : either(nodes.map((n) => `${n.bytes} B of ${n.toBackupBytes ?? '?'} B, ${n.records} records`)));
      }
    }
  } else if (engineRuns.every((r) => r !== null && r.backupId === engineRuns[0]?.backupId)) {
    v('no backup running', `backup ${engineRuns[0]?.backupId ?? '?'} running in every read`);
  }
  const pasts = reads.map((b) => [...(b?.last ?? [])].reverse());
  if (!pasts.some((p) => p.map((b) => b.backupId).join(',') === shown.past.map((b) => b.backupId).join(','))) {
    v(`past backups ${shown.past.map((b) => b.backupId).join(', ') || 'none'}`, either(pasts.map((p) => p.map((b) => b.backupId).join(', ') || 'none')));
  }
  const last = pasts.at(-1) ?? [];
  for (const row of shown.past) {
    const b = last.find((x) => x.backupId === row.backupId);
    if (!b) continue;
    const took = readDuration(row.took);
    const size = readBytes(row.size);
    const secs = (b.endedAt - b.startedAt) / 1000;
    const rate = readRate(row.rate);
    const agrees =
      row.outcome.startsWith(b.outcome ?? 'completed') &&
      took !== null &&
      within(took, [b.endedAt - b.startedAt]) &&
      size !== null &&
      within(size, [b.bytes]) &&
      readCount(row.records) === b.records &&
      (rate ? secs > 0 && within(rate, [b.bytes / secs]) : !(secs > 0));
    if (!agrees) v(`past backup ${row.backupId}: ${row.outcome}, took ${row.took}, ${row.size}, ${row.records} records, ${row.rate}`, `${b.outcome ?? 'completed'}, took ${b.endedAt - b.startedAt} ms, ${b.bytes} B, ${b.records} records`);
  }
  return out;
}

/** The ETA's words and times against the engine's range (each read counts from its own `at`). */
function etaShowsEngine(running: NonNullable<NonNullable<Frame['dom']['backups']>['running']>, runs: RunningBackup[]): Violation[] {
  const ranges = runs.map((r) => (r.etaRangeMs && r.at !== undefined ? { ...r.etaRangeMs, at: r.at } : null));
  const known = ranges.filter((r): r is NonNullable<typeof r> => r !== null);
  const words = /^ends in (?:about )?(.+?)(?: – (.+))?$/.exec(running.eta);
  const said = `Backups view: ETA "${running.eta}"${running.etaFrom !== null ? ` (${clock(running.etaFrom)}–${clock(running.etaTo ?? 0)})` : ''}`;
  const against = `engine: ${either(ranges.map((r) => (r ? `${r.fromMs}–${r.toMs} ms from ${clock(r.at)}` : 'no ETA')))}`;
  // A read without an ETA (a node's rate not known yet) and one with: the page may show any ETA it had meanwhile.
  if (known.length > 0 && known.length < runs.length) return [];
  if (!words) return known.length === 0 ? [] : [{ invariant: 'backup-shows-engine', said, against }];
  const from = readDuration(words[1] ?? '');
  const to = readDuration(words[2] ?? words[1] ?? '');
  // Each read counts from its own time: the page's, pushed between them, lies between their figures.
  const agrees =
    from !== null &&
    to !== null &&
    within(to, known.map((r) => r.toMs)) &&
    (words[2] === undefined || within(from, known.map((r) => r.fromMs))) &&
    running.etaFrom !== null &&
    running.etaTo !== null &&
    within({ value: running.etaFrom, slack: 1 }, known.map((r) => r.at + r.fromMs)) &&
    within({ value: running.etaTo, slack: 1 }, known.map((r) => r.at + r.toMs));
  return agrees ? [] : [{ invariant: 'backup-shows-engine', said, against }];
}

/** What node `nodeId` of a simulated backup had written at wall time `t` (it writes at a steady speed). */
function writtenAt(b: BackupTruth['running'][number], nodeId: number, t: number): number | null {
  const n = b.nodes.find((x) => x.nodeId === nodeId);
  if (!n) return null;
  const span = n.writtenBy - b.startedAt;
  return span <= 0 ? n.shareBytes : n.shareBytes * Math.min(1, Math.max(0, (t - b.startedAt) / span));
}

/** The engine's backup facts against the simulator's backups: which runs, each node's figures, the rate, the past sums. */
export function backupMatchesSource(frame: Frame): Violation[] {
  const truth = frame.truth.backups;
  if (!truth) return [];
  const id = 'backup-matches-source';
  const out: Violation[] = [];
  const v = (said: string, against: string): number => out.push({ invariant: id, said: `engine: ${said}`, against: `simulator: ${against}` });
  const engine = frame.after.backups?.running ?? null;
  const engineBefore = frame.before.backups?.running ?? null;
  for (const sim of truth.running) {
    if (frame.at - sim.startedAt > HEARD_MS && engine?.backupId !== sim.id && engineBefore?.backupId !== sim.id) v(engine ? `backup ${engine.backupId} running` : 'no backup running', `backup ${sim.id} writing since ${clock(sim.startedAt)}`);
  }
  if (engine) {
    const sim = truth.running.find((b) => b.id === engine.backupId);
    const ended = truth.ended.find((b) => b.id === engine.backupId);
    if (!sim) {
      if (!ended) v(`backup ${engine.backupId} running`, `no backup ${engine.backupId}`);
      else if (frame.at - ended.at > HEARD_MS) v(`backup ${engine.backupId} still running`, `it ended at ${clock(ended.at)}`);
    } else {
      for (const n of engine.nodes) {
        const at = n.at ?? frame.after.sampledAt ?? frame.at;
        // The node's report left the simulator at most a second before the engine had it (the two clocks, the
        // simulator's monotonic one and the wall, may be a few ms apart).
        const lo = writtenAt(sim, n.nodeId, at - 1000);
        const hi = writtenAt(sim, n.nodeId, at + CLOCKS_MS);
        if (lo === null || hi === null) v(`node ${n.nodeId} reports on backup ${sim.id}`, `node ${n.nodeId} takes no part in it`);
        else if (n.bytes < Math.floor(lo) - 1 || n.bytes > Math.ceil(hi) + 1) v(`node ${n.nodeId} had written ${n.bytes} B at ${clock(at)}`, `${Math.round(lo)}–${Math.round(hi)} B in the second before`);
        else if (Math.abs(n.records - n.bytes / sim.rowBytes) > 1) v(`node ${n.nodeId}: ${n.records} records in ${n.bytes} B`, `${sim.rowBytes} B a row`);
      }
      const steady = engine.nodes.length === sim.nodes.length && engine.nodes.every((n) => (n.at ?? 0) >= sim.startedAt + HEARD_MS && sim.nodes.every((s) => (n.at ?? 0) < s.writtenBy));
      const disks = sim.nodes.reduce((s, n) => s + (n.shareBytes * 1000) / Math.max(1, n.writtenBy - sim.startedAt), 0);
      const span = Math.min(...engine.nodes.map((n) => (n.at ?? 0) - sim.startedAt));
      if (steady && engine.bytesPerSec !== null && Math.abs(engine.bytesPerSec - disks) > disks * (RATE_SHARE + STAMP_LATE_MS / span)) v(`backup ${sim.id} writes ${Math.round(engine.bytesPerSec)} B/s`, `its nodes' disks write ${Math.round(disks)} B/s`);
    }
  }
  for (const past of frame.after.backups?.last ?? []) {
    const sim = truth.ended.find((b) => b.id === past.backupId);
    if (!sim) continue;
    const heard = past.endedAt >= sim.at - 200 && past.endedAt <= sim.at + HEARD_MS;
    if (past.bytes !== sim.bytes || past.records !== sim.records || (past.outcome ?? 'completed') !== 'completed' || !heard) {
      v(`backup ${past.backupId} ${past.outcome ?? 'completed'} at ${clock(past.endedAt)}: ${past.bytes} B, ${past.records} records`, `completed at ${clock(sim.at)}: ${sim.bytes} B, ${sim.records} records`);
    }
  }
  return out;
}

/** Every ETA range the Backups view shows contains the backup's real end (the simulator's BackupCompleted). */
export function backupEtaContainsEnd(frame: Frame): Violation[] {
  const running = frame.dom.backups?.running;
  const sim = frame.truth.backups?.running.find((b) => b.id === running?.backupId);
  if (!running || !sim || running.etaFrom === null || running.etaTo === null) return [];
  // The page shows whole seconds; the engine hears the end up to a poll late; the simulator's timers run late on a loaded machine.
  const slack = 1000 + 0.02 * Math.max(0, sim.endsAt - frame.at);
  if (sim.endsAt >= running.etaFrom - slack && sim.endsAt <= running.etaTo + slack) return [];
  return [{ invariant: 'backup-eta-contains-end', said: `Backups view: backup ${running.backupId} "${running.eta}" (${clock(running.etaFrom)}–${clock(running.etaTo)})`, against: `simulator: it ends at ${clock(sim.endsAt)}` }];
}
