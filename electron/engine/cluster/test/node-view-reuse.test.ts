import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sameValue } from '../../../contract/page-safe/same-value.js';
import { ClusterTracker } from '../cluster-tracker.js';
import { createEngine } from '../../create-engine.js';
import { isInputLine } from '../../recording/recording-format.js';
import { readRecording } from '../../recording/recording-reader.js';
import { waitFor } from '../../test/helpers.js';

const quiet = { changed: () => undefined, events: () => undefined, alert: () => undefined, history: () => undefined };

test('reused node views are always what a fresh build gives: a failure, its restart and the load, input by input', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-views-'));
  const file = join(dir, 'run.jsonl');
  try {
    const engine = await createEngine({ host: 'serve', simulator: { scenario: 'benchmark', dataNodes: 4, replicas: 2, speed: 5 }, recordFile: file, pollIntervalMs: 200 });
    try {
      await waitFor('rates for every data node', async () => (await engine.handlers.getSnapshot({})).nodes.filter((n) => n.type === 'NDB' && n.rates).length === 4, 30_000);
      const victim = (await engine.handlers.getSnapshot({})).nodes.find((n) => n.type === 'NDB')?.nodeId ?? 0;
      const status = async (): Promise<string | undefined> => (await engine.handlers.getSnapshot({})).nodes.find((n) => n.nodeId === victim)?.status;
      engine.simulator?.model.failNode(victim, { autoRestart: true });
      await waitFor('the victim down', async () => (await status()) !== 'STARTED');
      await waitFor('the victim restarted', async () => (await status()) === 'STARTED', 60_000);
    } finally {
      await engine.close();
    }
    const rec = await readRecording(file);
    const cluster = rec.lines.find((l) => l.kind === 'cluster');
    assert.ok(cluster?.kind === 'cluster');
    const options = { connectstring: cluster.connectstring, mode: cluster.mode, historySeconds: 600 };
    const reusing = new ClusterTracker(cluster.c, cluster.name, options, quiet);
    const fresh = new ClusterTracker(cluster.c, cluster.name, { ...options, reuseNodeViews: false }, quiet);
    let inputs = 0;
    let reused = 0;
    let before = reusing.snapshot();
    for (const line of rec.lines.filter(isInputLine)) {
      reusing.apply(line);
      fresh.apply(line);
      const got = reusing.snapshot();
      const want = fresh.snapshot();
      if (!sameValue(got, want)) {
        // Which part differs, in node's diff of the two (a run under load once failed here, not reproduced since).
        const where = `after input ${inputs} (${line.kind}${line.kind === 'event' ? ` ${line.event.name}` : ''}) the snapshots differ`;
        assert.deepStrictEqual({ where, nodes: got.nodes }, { where, nodes: want.nodes });
        assert.fail(`${where} outside their nodes`);
      }
      const previous = new Map(before.nodes.map((n) => [n.nodeId, n]));
      reused += got.nodes.filter((n) => previous.get(n.nodeId) === n).length;
      before = got;
      inputs += 1;
    }
    assert.ok(inputs > 100, `${inputs} inputs`);
    assert.ok(reused > inputs, `views were reused (${reused} times over ${inputs} inputs), so the check above checked something`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
