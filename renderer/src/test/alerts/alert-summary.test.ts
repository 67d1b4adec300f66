import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { summarizeAlerts } from '../../view-model/alerts/alert-summary.js';
import { alert } from '../fixtures.js';

test('alerts: active ones critical first then newest; resolved ones folded apart, newest first, since the oldest', () => {
  const alerts = [
    alert('w-old', { at: 100 }),
    alert('w-new', { at: 300 }),
    alert('c', { at: 200, severity: 'critical', kind: 'node-down', nodeId: 3 }),
    alert('r1', { at: 50, resolvedAt: 60 }),
    alert('r2', { at: 250, resolvedAt: 260 }),
    alert('acked', { at: 10, acknowledged: true }),
    alert('acked-resolved', { at: 5, acknowledged: true, resolvedAt: 6 }),
  ];
  const s = summarizeAlerts(alerts);
  assert.deepEqual(s.active.map((a) => a.id), ['c', 'w-new', 'w-old']);
  assert.deepEqual(s.resolved.map((a) => a.id), ['r2', 'r1']);
  assert.equal(s.resolvedSince, 50);
  assert.deepEqual(summarizeAlerts([alert('a', { acknowledged: true })]), { active: [], resolved: [], resolvedSince: null });
});

test('alerts: every unacknowledged alert lands in exactly one of the two lists, none acknowledged does', () => {
  const arbitrary = fc.record({
    id: fc.uuid(),
    severity: fc.constantFrom('warning' as const, 'critical' as const),
    at: fc.nat(1e6),
    acknowledged: fc.boolean(),
    resolvedAt: fc.option(fc.nat(1e6)),
  });
  fc.assert(
    fc.property(fc.uniqueArray(arbitrary, { selector: (a) => a.id }), (parts) => {
      const alerts = parts.map((p) => alert(p.id, p));
      const s = summarizeAlerts(alerts);
      const open = alerts.filter((a) => !a.acknowledged).map((a) => a.id).sort();
      assert.deepEqual([...s.active, ...s.resolved].map((a) => a.id).sort(), open);
      assert.ok(s.active.every((a) => a.resolvedAt === null) && s.resolved.every((a) => a.resolvedAt !== null));
      const firstWarning = s.active.findIndex((a) => a.severity === 'warning');
      assert.ok(firstWarning === -1 || s.active.slice(firstWarning).every((a) => a.severity === 'warning'), 'critical first');
    }),
  );
});
