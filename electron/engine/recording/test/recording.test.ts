import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ClusterSnapshot } from '../../../contract/schemas/snapshot.js';
import { createEngine } from '../../create-engine.js';
import { isOutputLine } from '../recording-format.js';
import { isGzip } from '../recording-member.js';
import { readRecording } from '../recording-reader.js';
import { createReplayEngine } from '../replay.js';
import { applyDelta } from '../../core/push/snapshot-delta.js';
import { nodeArgs, sourcePath } from '../../../../scripts/test-source.js';
import { waitFor } from '../../test/helpers.js';

async function tempFile(name: string): Promise<{ file: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-rec-'));
  return { file: join(dir, name), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The last snapshot the recording says was pushed, rebuilt from its snapshot and delta lines. */
function lastRecorded(lines: Awaited<ReturnType<typeof readRecording>>['lines']): ClusterSnapshot | null {
  let snap: ClusterSnapshot | null = null;
  for (const line of lines.filter(isOutputLine)) snap = line.kind === 'snapshot' ? line.snapshot : snap && applyDelta(snap, line.delta);
  return snap;
}

const withoutMode = (s: ClusterSnapshot): unknown => ({ ...s, connection: { ...s.connection, mode: null } });

test('recording survives kill -9: every line written before the kill parses, and it replays', async () => {
  const { file, cleanup } = await tempFile('crash.jsonl');
  const child = spawn(process.execPath, [...nodeArgs(new URL('./fixtures/record-child.ts', import.meta.url)), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    // Ticks on disk while the process runs prove the periodic flush (nothing is closed before the kill).
    const ticks = async (): Promise<number> => (await readRecording(file).catch(() => ({ lines: [] }))).lines.filter((l) => l.kind === 'tick').length;
    await waitFor('three ticks on disk', async () => (await ticks()) >= 3, 30_000);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const rec = await readRecording(file);
    assert.ok(isGzip(await readFile(file)), 'written compressed');
    // A member is written whole in one write: only a kill inside that write can leave a torn one, at the end.
    assert.ok(rec.unreadable <= 1, JSON.stringify(rec.problems));
    for (const p of rec.problems) assert.match(p.error, /compressed data ends|torn last line/);
    const kinds = new Set(rec.lines.map((l) => l.kind));
    for (const k of ['cluster', 'connection', 'status', 'event', 'tick', 'snapshot']) assert.ok(kinds.has(k as never), `recording has ${k} lines`);

    const replay = await createReplayEngine({ file, speed: Infinity });
    try {
      const report = await replay.finished;
      assert.ok(report.inputs > 0);
      const snap = await replay.handlers.getSnapshot({});
      assert.equal(snap.connection.mode, 'replay');
      assert.ok(snap.nodes.some((n) => n.type === 'NDB'));
    } finally {
      await replay.close();
    }
  } finally {
    child.kill('SIGKILL');
    await cleanup();
  }
});

test('replay reproduces the recorded snapshots, history and event log', async () => {
  const { file, cleanup } = await tempFile('run.jsonl');
  try {
    const engine = await createEngine({ host: 'desktop', simulator: { scenario: 'rolling-restart', dataNodes: 2, speed: 5 }, recordFile: file });
    await waitFor('a restart under way and history', async () => {
      const s = await engine.handlers.getSnapshot({});
      const h = await engine.handlers.getHistory({ metrics: ['reads'] });
      return s.nodes.some((n) => n.restart !== null) && h.at.length >= 2;
    });
    const liveHistory = await engine.handlers.getHistory({ metrics: ['reads', 'dataMemory'], nodeIds: [2, 3] });
    const liveEvents = await engine.handlers.getEvents({ limit: 10_000 });
    await engine.close();

    const rec = await readRecording(file);
    assert.deepEqual(rec.problems, []);
    const recorded = lastRecorded(rec.lines);
    assert.ok(recorded);

    const replay = await createReplayEngine({ file, speed: Infinity });
    try {
      await replay.finished;
      const replayed = await replay.handlers.getSnapshot({});
      assert.deepEqual(withoutMode(replayed), withoutMode(recorded));
      const history = await replay.handlers.getHistory({ metrics: ['reads', 'dataMemory'], nodeIds: [2, 3] });
      assert.deepEqual(history.at.slice(0, liveHistory.at.length), liveHistory.at);
      assert.deepEqual(history.series.map((s) => s.values.slice(0, liveHistory.at.length)), liveHistory.series.map((s) => s.values));
      const events = await replay.handlers.getEvents({ limit: 10_000 });
      assert.deepEqual(events.slice(0, liveEvents.length), liveEvents);
      const action = await replay.handlers.runAction({ action: { kind: 'exitSingleUser' } });
      assert.equal(action.ok, false);
      await assert.rejects(replay.handlers.addCluster({ name: 'x', connectstring: 'localhost' }), /cannot watch further clusters/);
    } finally {
      await replay.close();
    }
  } finally {
    await cleanup();
  }
});

test('a corrupt recording: torn lines are reported and skipped, a file that is not a recording is refused', async () => {
  const { file, cleanup } = await tempFile('torn.jsonl');
  try {
    const header = JSON.stringify({ format: 'ndbtop-recording', version: 1, createdAt: 1, engine: 'test' });
    const cluster = JSON.stringify({ c: 'c1', kind: 'cluster', t: 10, name: 'prod', connectstring: 'mgm1', mode: 'live' });
    const tick = JSON.stringify({ c: 'c1', kind: 'tick', t: 1000 });
    await writeFile(file, [header, cluster, 'garbage in the middle', tick, '{"c":"c1","kind":"ev'].join('\n'));
    const replay = await createReplayEngine({ file, speed: Infinity });
    try {
      const report = await replay.finished;
      assert.deepEqual(report.problems.map((p) => p.line), [3, 5]);
      assert.equal(report.inputs, 1);
      const snap = await replay.handlers.getSnapshot({});
      assert.equal(snap.name, 'prod');
      assert.match(snap.connection.lastError ?? '', /2 unreadable lines skipped \(line 3/);
    } finally {
      await replay.close();
    }
    await writeFile(file, 'hello\n');
    await assert.rejects(createReplayEngine({ file }), /not an ndbtop recording/);
    await assert.rejects(createReplayEngine({ file: `${file}.missing` }), /ENOENT/);
  } finally {
    await cleanup();
  }
});

test('a recording made when every node carried its own sampledAt, rates.at and memory at, the total its at and the connection its lastEventAt, still reads, in today’s shape, and replays to what it recorded', async () => {
  const file = sourcePath(new URL('./fixtures/recording-per-node-sampled-at.jsonl', import.meta.url));
  const raw = await readFile(file, 'utf8');
  assert.match(raw, /"isMaster":(true|false),"sampledAt":\d+/, 'the fixture is of the old shape');
  assert.match(raw, /"rates":\{"at":\d+,[^}]*"stale":(true|false)\}/, 'with node rates that carried their arrival time');
  assert.match(raw, /"rates":\{"at":\d+,[^}]*"contributing"/, 'and a cluster total that carried its newest report\'s');
  assert.match(raw, /"eventStream":\{"status":"\w+","lastEventAt":\d+\}/, 'and a connection with its newest event\'s time');
  assert.match(raw, /"memory":\{"data":\{[^}]*"percent":[\d.]+,"at":\d+\}/, 'and memory figures that carried theirs');
  const rec = await readRecording(file);
  assert.deepEqual(rec.problems, []);
  const outputs = rec.lines.filter(isOutputLine);
  assert.ok(outputs.some((l) => l.kind === 'delta' && (l.delta.nodes?.length ?? 0) > 0));
  for (const line of outputs) {
    const nodes = line.kind === 'snapshot' ? line.snapshot.nodes : (line.delta.nodes ?? []);
    for (const n of nodes) assert.ok(!('sampledAt' in n), `line at ${line.t}: node ${n.nodeId} lost its own sampledAt`);
    for (const n of nodes) assert.ok(n.rates === null || !('at' in n.rates), `line at ${line.t}: node ${n.nodeId}'s rates lost their arrival time`);
    const total = line.kind === 'snapshot' ? line.snapshot.rates : line.delta.rates;
    assert.ok(!total || !('at' in total), `line at ${line.t}: the cluster total lost its newest report's arrival time`);
    const connection = line.kind === 'snapshot' ? line.snapshot.connection : line.delta.connection;
    assert.ok(!connection || !('lastEventAt' in connection.eventStream), `line at ${line.t}: the connection lost its newest event's time`);
    for (const use of nodes.flatMap((n) => [n.memory.data, n.memory.index])) assert.ok(use === null || (!('at' in use) && typeof use.stale === 'boolean'), `line at ${line.t}: memory figures without their arrival time, stale or not`);
  }
  const recorded = lastRecorded(rec.lines);
  assert.ok(recorded?.sampledAt, 'the poll time is still there, once, for the cluster');
  const replay = await createReplayEngine({ file, speed: Infinity });
  try {
    await replay.finished;
    // What today's engine derives beyond what that engine pushed (the rolling-restart record, statuses that began
    // before it watched, the connection's lasting trouble, each data node's restart state, a memory figure's trend,
    // the incident a node-down alert links)
    // is left out; everything it did push must be derived the same.
    const withoutTrend = <T extends { trend?: unknown }>(use: T | null): Omit<T, 'trend'> | null => {
      if (use === null) return null;
      const { trend: _trend, ...rest } = use;
      return rest;
    };
    const predates = (s: ClusterSnapshot): ClusterSnapshot => {
      const { rollingRestart: _rolling, ...rest } = s;
      const { trouble: _trouble, ...connection } = s.connection;
      return {
        ...rest,
        connection,
        alerts: s.alerts.map(({ incidentId: _incident, ...a }) => a),
        nodes: s.nodes.map(({ statusBeforeWatch: _before, restartState: _state, ...n }) => ({ ...n, memory: { ...n.memory, data: withoutTrend(n.memory.data), index: withoutTrend(n.memory.index) } })),
      };
    };
    assert.deepEqual(withoutMode(predates(await replay.handlers.getSnapshot({}))), withoutMode(predates(recorded)));
  } finally {
    await replay.close();
  }
});
