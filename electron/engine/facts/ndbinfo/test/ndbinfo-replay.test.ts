import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Alert } from '../../../../contract/schemas/events.js';
import { createEngine } from '../../../create-engine.js';
import { createReplayEngine } from '../../../recording/replay.js';
import { waitFor } from '../../../test/helpers.js';

const FAST = { intervals: { logspaces: 300, transporters: 300, transporterDetails: 300, diskWriteSpeed: 300, diskPageBuffer: 300 }, loadEveryMs: 300, connectTimeoutMs: 2000, queryTimeoutMs: 2000 };
const ours = (alerts: readonly Alert[]): Array<Pick<Alert, 'kind' | 'nodeId' | 'at' | 'message'>> =>
  alerts.filter((a) => a.kind === 'transporter-overload' || a.kind.startsWith('log-fill')).map(({ kind, nodeId, at, message }) => ({ kind, nodeId, at, message }));

test('a replay rebuilds the io figures and the ndbinfo alerts from the recorded ndbinfo readings', { timeout: 120_000 }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-io-replay-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'rec.jsonl.gz');
  const live = await createEngine({ host: 'serve', pollIntervalMs: 500, recordFile: file, simulator: { scenario: 'congested-network', dataNodes: 2, speed: 8 }, sqlWatch: FAST });
  let raised: ReturnType<typeof ours>;
  try {
    // A burst overloads the replication link and the alert is raised; calm resolves it.
    raised = await waitFor('a transporter-overload alert raised and over', async () => {
      const a = ours((await live.handlers.getSnapshot({})).alerts).filter((x) => x.kind === 'transporter-overload');
      return a.length > 0 && (await live.handlers.getSnapshot({})).alerts.every((x) => x.kind !== 'transporter-overload' || x.resolvedAt !== null) ? a : null;
    }, 90_000);
    const nodes = (await live.handlers.getSnapshot({})).ndbinfoNodes ?? [];
    assert.ok(nodes.length === 2 && nodes.every((n) => n.diskPageBuffer && n.redo && n.redo.parts >= 1), JSON.stringify(nodes.map((n) => [n.diskPageBuffer, n.redo])));
  } finally {
    await live.close();
  }
  const replay = await createReplayEngine({ file, speed: Infinity });
  try {
    await replay.finished;
    const snap = await replay.handlers.getSnapshot({});
    for (const a of raised) assert.ok(ours(snap.alerts).some((r) => r.kind === a.kind && r.nodeId === a.nodeId && r.at === a.at && r.message === a.message), `replayed ${JSON.stringify(a)}`);
    const nodes = snap.ndbinfoNodes ?? [];
    assert.equal(nodes.length, 2);
    for (const n of nodes) assert.ok(n.diskPageBuffer && n.redo && n.redo.parts >= 1 && n.diskWrite, `node ${n.nodeId}: ${JSON.stringify(n)}`);
    assert.ok((await replay.handlers.getLinks({}))?.links.some((l) => l.overloadCount > 0), 'the links with their overload counts');
  } finally {
    await replay.close();
  }
});
