import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEngine } from '../../../create-engine.js';
import { startServeServer } from '../../../../serve/serve-server.js';
import { httpRunMarker } from '../../../../serve/runs-client.js';
import { waitFor } from '../../../test/helpers.js';

test("the flexasynch scenario's run report names its LDM threads as the bottleneck, run and every phase", async () => {
  // A 30 s phase must hold enough thread readings (one a second of wall time) that one straddling its start, still
  // measuring the idle before it, cannot pull the phase's mean under the mark: at speed 8 a phase had 3 or 4.
  const engine = await createEngine({ host: 'serve', pollIntervalMs: 500, simulator: { scenario: 'flexasynch', dataNodes: 2, speed: 3, waitForMarker: true } });
  const server = await startServeServer({ engine, staticDir: '/nonexistent', port: 0 });
  try {
    engine.simulator?.marks.attach(httpRunMarker({ url: server.url }));
    const run = await waitFor('the first run to stop', async () => (await engine.handlers.getSnapshot({})).runs?.find((r) => r.end !== null), 90_000);
    const report = (await engine.handlers.getRunReports({ runIds: [run.id], figure: 'transactions' })).runs[0];
    assert.ok(report);
    const b = report.summary.bottleneck;
    assert.equal(b.kind, 'ldm-cpu', b.text);
    assert.match(b.text, /^LDM threads on nodes 2, 3 averaged (8[5-9]|9\d|100) % busy: the data nodes are CPU-bound in LDM$/);
    assert.ok(b.evidence.some((e) => /^TC threads: \d+ % busy/.test(e)), b.evidence.join('\n'));
    for (const p of report.phases) assert.equal(p.summary.bottleneck.kind, 'ldm-cpu', `${p.name}: ${p.summary.bottleneck.text}`);
  } finally {
    await server.close();
    await engine.close();
  }
});
