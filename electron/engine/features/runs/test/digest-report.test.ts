import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createEngine } from '../../../create-engine.js';
import { indexRecording } from '../../../recording/recording-index.js';
import { DIGEST, encodeMember, memberInfo, type MemberInfo } from '../../../recording/recording-member.js';
import { createReplayEngine } from '../../../recording/replay.js';
import { waitFor } from '../../../test/helpers.js';
import { digestReports } from '../digest-report.js';
import { reportsOfRecording } from '../recording-runs.js';
import { formatReports } from '../report-format.js';
import type { RunReport } from '../../../../contract/schemas/runs.js';

const LEAD_MS = 2000;

/** What `ndbtop report` prints of these runs, in the formats it prints. */
const shown = (reports: RunReport[]): string[] => (['md', 'csv'] as const).map((f) => formatReports({ runs: reports, comparison: null }, f));

/** The file's members, without those `drop` picks. */
async function withoutMembers(file: string, out: string, drop: (info: MemberInfo) => boolean): Promise<void> {
  const bytes = await readFile(file);
  const kept: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; ) {
    const info = memberInfo(bytes.subarray(offset));
    assert.ok(info, `a member of ours at ${offset}`);
    if (!drop(info)) kept.push(bytes.subarray(offset, offset + info.length));
    offset += info.length;
  }
  await writeFile(out, Buffer.concat(kept));
}

test("a report read from a recording's digests says what a replay of every poll says, to the digit shown; a file without digests is played", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-digest-'));
  const file = join(dir, 'rec.ndbtop');
  try {
    const live = await createEngine({ host: 'serve', pollIntervalMs: 200, recordFile: file, keyframeMs: 1000, simulator: { scenario: 'steady', dataNodes: 4, speed: 4 } });
    try {
      await waitFor('load', async () => ((await live.handlers.getSnapshot({})).rates?.transactions ?? 0) > 0, 30_000);
      await waitFor('threads from ndbinfo', async () => ((await live.handlers.getSnapshot({})).ndbinfoNodes ?? []).some((n) => n.threads && !n.stale), 30_000);
      // Past the lead a report plays before a run, so the played path starts from a keyframe as it does in a long file.
      await new Promise((r) => setTimeout(r, LEAD_MS + 1000));
      const samples = async (id: string): Promise<number> => (await live.handlers.getRunReports({ runIds: [id], figure: 'transactions' })).runs[0]?.summary.transactions?.samples ?? 0;
      const a = await live.handlers.startRun({ name: 'A', tags: { nodes: '4' }, phase: 'one' });
      await waitFor('A: four samples', async () => (await samples(a.id)) >= 4, 30_000);
      await live.handlers.markPhase({ name: 'two' });
      await waitFor('A: eight samples', async () => (await samples(a.id)) >= 8, 30_000);
      await live.handlers.stopRun({});
      const b = await live.handlers.startRun({ name: 'B', tags: {} });
      await waitFor('B: five samples', async () => (await samples(b.id)) >= 5, 30_000);
      await live.handlers.stopRun({});
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      await live.close();
    }

    const index = await indexRecording(file);
    assert.ok(index.digests.length >= 10, `a digest before each keyframe and one at the close: ${index.digests.length}`);
    const digested = await digestReports(file, index, 'rec');
    assert.deepEqual([...digested.values()].map((r) => r.name), ['A', 'B'], 'both runs are told by the digests alone');

    const fast = await reportsOfRecording(file, 'rec', createReplayEngine, undefined, LEAD_MS);
    const played = await reportsOfRecording(file, 'rec', createReplayEngine, undefined, LEAD_MS, false);
    assert.deepEqual(fast.reports.map((r) => r.name), ['A', 'B']);
    assert.deepEqual(fast.reports, [...digested.values()], 'report takes the digests’ summaries');
    assert.ok(fast.reports.every((r) => (r.summary.transactions?.samples ?? 0) >= 5 && r.summary.bottleneck.kind !== 'unknown'), JSON.stringify(fast.reports.map((r) => r.summary.bottleneck)));
    assert.deepEqual(shown(fast.reports), shown(played.reports), 'the same report as a replay of every poll');
    assert.deepEqual(fast.reports.map((r) => r.series), played.reports.map((r) => r.series), 'the same overlay series');
    assert.deepEqual(fast.reports.map((r) => r.phases.map((p) => p.summary.bottleneck)), played.reports.map((r) => r.phases.map((p) => p.summary.bottleneck)));

    // A file written before digests (the same file without its digest members) is played, and says the same.
    const old = join(dir, 'old.ndbtop');
    await withoutMembers(file, old, (m) => (m.flags & DIGEST) !== 0);
    assert.equal((await indexRecording(old)).digests.length, 0);
    const oldReports = await reportsOfRecording(old, 'rec', createReplayEngine, undefined, LEAD_MS);
    assert.deepEqual(shown(oldReports.reports), shown(played.reports));

    // A digest that is not one (recordings are shared): refused, and the file is played.
    const hostile = join(dir, 'hostile.ndbtop');
    const bad = { c: 'c1', kind: 'digest', t: 1, v: 1, since: null, through: 1, ticks: [{ at: 1, cluster: {}, tx: [['1', 'x']] }], events: [], alerts: [], outages: [], dataNodes: [] };
    await writeFile(hostile, Buffer.concat([await readFile(file), encodeMember(`${JSON.stringify(bad)}\n`, DIGEST, 1)]));
    await assert.rejects(digestReports(hostile, await indexRecording(hostile), 'rec'), /a tick is not one/);
    assert.deepEqual(shown((await reportsOfRecording(hostile, 'rec', createReplayEngine, undefined, LEAD_MS)).reports), shown(played.reports));

    // A writer killed during run B: no digest past B's first two seconds, none final. A is read from digests, B is played.
    const killed = join(dir, 'killed.ndbtop');
    const bStart = fast.reports[1]?.start ?? 0;
    await withoutMembers(file, killed, (m) => (m.flags & DIGEST) !== 0 && m.t >= bStart + 2000);
    const killedIndex = await indexRecording(killed);
    assert.deepEqual([...(await digestReports(killed, killedIndex, 'rec')).values()].map((r) => r.name), ['A']);
    assert.deepEqual(shown((await reportsOfRecording(killed, 'rec', createReplayEngine, undefined, LEAD_MS)).reports), shown(played.reports));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a data node down and back during a run: its outage, the alerts and the warnings read from digests are what a replay derives', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-digest-'));
  const file = join(dir, 'rec.ndbtop');
  try {
    // No SQL source: a restart's phases would come from restart_info, which a report plays for.
    const live = await createEngine({ host: 'serve', pollIntervalMs: 200, recordFile: file, keyframeMs: 1000, simulator: { scenario: 'steady', dataNodes: 4, speed: 4, sql: false } });
    try {
      await waitFor('load', async () => ((await live.handlers.getSnapshot({})).rates?.transactions ?? 0) > 0, 30_000);
      await new Promise((r) => setTimeout(r, LEAD_MS + 1000));
      const status = async (id: number): Promise<string | undefined> => (await live.handlers.getSnapshot({})).nodes.find((n) => n.nodeId === id)?.status;
      const node = (await live.handlers.getSnapshot({})).nodes.find((n) => n.type === 'NDB')?.nodeId ?? 0;
      await live.handlers.startRun({ name: 'R', tags: {} });
      await new Promise((r) => setTimeout(r, 2000));
      // A crash the angel brings back: the node-down alert and the failure's log warnings, not a planned restart.
      live.simulator?.model.failNode(node, { autoRestart: true, reportForced: true, downMs: 4000 });
      await waitFor('down', async () => (await status(node)) !== 'STARTED', 30_000);
      await waitFor('back', async () => (await status(node)) === 'STARTED', 60_000);
      await new Promise((r) => setTimeout(r, 2000));
      await live.handlers.stopRun({});
      await new Promise((r) => setTimeout(r, 1500));
    } finally {
      await live.close();
    }
    const index = await indexRecording(file);
    const [digested] = [...(await digestReports(file, index, 'rec')).values()];
    assert.ok(digested, 'told by the digests');
    assert.equal(digested.summary.restarts.length, 1, JSON.stringify(digested.summary.restarts));
    assert.ok(digested.summary.alerts.some((a) => a.kind === 'node-down'), JSON.stringify(digested.summary.alerts));
    assert.ok(digested.summary.events.length > 0, 'the failure\'s warnings');
    const played = await reportsOfRecording(file, 'rec', createReplayEngine, undefined, LEAD_MS, false);
    assert.deepEqual(shown([digested]), shown(played.reports));
    assert.deepEqual(digested.summary, played.reports[0]?.summary);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
