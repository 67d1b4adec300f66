import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MaintenanceWindow } from '../../../../contract/schemas/maintenance.js';
import { PolledCluster } from '../../../test/tracker-fixture.js';
import { exportHistory } from '../history-export.js';

const S = 1000;
/** RFC 4180 cells of one line: quoted ones may hold commas. */
const cells = (line: string): string[] => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1] ?? '').slice(0, -1).map((c) => (c.startsWith('"') ? c.slice(1, -1).replace(/""/g, '"') : c));
const REASON = 'swap disks, node 1';

/**
 * Issue 23 item 10: a maintenance window marks the charts, and so the exports, which are what is left of a night's
 * work: each CSV row says which window it was sampled in, the JSON lists the windows of the stretch exported.
 */
test('exports say which samples were taken inside a maintenance window', () => {
  const cluster = new PolledCluster(2);
  const { tracker } = cluster;
  for (let t = 1 * S; t <= 10 * S; t += S) {
    if (t === 4 * S) tracker.apply({ kind: 'maintenance', t, op: 'start', windowId: 'mw-1', reason: REASON, silence: ['node-down'], until: 60 * S, silenceCritical: false, by: 'ops' });
    if (t === 7 * S) tracker.apply({ kind: 'maintenance', t, op: 'stop', windowId: 'mw-1' });
    cluster.poll(t - 50);
    tracker.apply({ kind: 'tick', t });
  }
  const windows = tracker.maintenance.list();
  const meta = { clusterId: 'c1', name: 'test', exportedAt: 11 * S };

  const [header, ...rows] = exportHistory(tracker.history, meta, 'csv', {}, windows).content.trim().split('\n');
  const columns = cells(header ?? '');
  const col = columns.indexOf('maintenance');
  assert.ok(col > 0, `a maintenance column: ${header}`);
  const inWindow = rows.map((r) => [Number(cells(r)[0]) / S, cells(r)[col]]);
  assert.deepEqual(
    inWindow.filter(([, m]) => m !== ''),
    [4, 5, 6].map((t) => [t, `mw-1: ${REASON}`]),
    'the seconds from the window opening until it was stopped, by id and reason (quoted: it has a comma)',
  );
  assert.equal(inWindow.length, 10, 'every second is a row, inside a window or not');

  const json = JSON.parse(exportHistory(tracker.history, meta, 'json', {}, windows).content) as { maintenance: MaintenanceWindow[] };
  assert.deepEqual(json.maintenance, [{ id: 'mw-1', reason: REASON, silence: ['node-down'], silenceCritical: false, openedBy: 'ops', start: 4 * S, until: 60 * S, end: 7 * S }]);
  const before = JSON.parse(exportHistory(tracker.history, meta, 'json', { toMs: 3 * S }, windows).content) as { maintenance: MaintenanceWindow[] };
  assert.deepEqual(before.maintenance, [], 'a stretch before the window lists none');
});
