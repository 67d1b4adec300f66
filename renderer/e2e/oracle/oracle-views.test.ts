import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NO_BROWSER, browserSuite } from '../harness.js';
import { describe, runOracle } from './run-oracle.js';

const suite = browserSuite();
const skip = NO_BROWSER ?? false;
const seconds = Number(process.env.NDBTOP_ORACLE_SECONDS ?? 14);

test('oracle: backup at 4 data nodes, the Backups view shown, keeps every invariant', { skip }, async () => {
  const { dir, browser } = suite();
  const report = await runOracle(browser, dir, { scenario: 'backup', dataNodes: 4, seconds, speed: 3, views: ['backups', 'backups', 'nodes'] });
  assert.ok(report.frames.some((f) => f.dom.backups?.running), 'a running backup was shown');
  assert.deepEqual(report.findings.map(describe), []);
});

test('oracle: node-failure at 4 data nodes, the Incidents view shown, keeps every invariant', { skip }, async () => {
  const { dir, browser } = suite();
  const report = await runOracle(browser, dir, { scenario: 'node-failure', dataNodes: 4, seconds, speed: 3, views: ['incidents', 'incidents', 'nodes'] });
  assert.ok(report.frames.some((f) => (f.dom.incidents?.rows.length ?? 0) > 0), 'an incident was shown');
  assert.deepEqual(report.findings.map(describe), []);
});
