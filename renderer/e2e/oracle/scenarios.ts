import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ScenarioName } from '../../../native-mgm/sim/index.js';
import { EMBEDDED_SQL_MAX_DATA_NODES } from '../../../electron/engine/create-engine.js';
import { NO_BROWSER, browserSuite } from '../harness.js';
import { describe, runOracle } from './run-oracle.js';

/** Every scenario the issue names; the oracle runs each at the sizes its test file gives. */
export const ORACLE_SCENARIOS: readonly ScenarioName[] = ['steady', 'rolling-restart', 'node-failure', 'mgmd-failover', 'benchmark', 'flexasynch', 'collapse', 'redo-pressure', 'congested-network'];

/**
 * The short variant npm test runs: each scenario for `seconds` frames at `speed` (NDBTOP_ORACLE_SECONDS and
 * NDBTOP_ORACLE_SPEED make it the long one), one browser, the scenarios in turn.
 */
export function oracleSuite(dataNodes: number, seconds = Number(process.env.NDBTOP_ORACLE_SECONDS ?? 8), speed = Number(process.env.NDBTOP_ORACLE_SPEED ?? 3)): void {
  const suite = browserSuite();
  // A developer's run of some of them: NDBTOP_ORACLE_SCENARIOS=rolling-restart,collapse.
  const only = process.env.NDBTOP_ORACLE_SCENARIOS?.split(',');
  for (const scenario of ORACLE_SCENARIOS.filter((s) => !only || only.includes(s))) {
    test(`oracle: ${scenario} at ${dataNodes} data nodes keeps every invariant`, { skip: NO_BROWSER ?? false }, async () => {
      const { dir, browser } = suite();
      const report = await runOracle(browser, dir, { scenario, dataNodes, seconds, speed });
      assert.ok(report.frames.length === seconds, `${report.frames.length} frames of ${seconds}`);
      // The embedded SQL node is the SQL source up to its size (48 data nodes): restart phases and redo are checked at
      // 48 as at 4; the long variant at 144 runs without.
      if (dataNodes <= EMBEDDED_SQL_MAX_DATA_NODES) {
        assert.ok(report.frames.some((f) => f.after.ndbinfo?.source.status === 'up'), `the SQL source was up in some frame: ${JSON.stringify(report.frames.at(-1)?.after.ndbinfo?.source ?? null)}`);
      }
      assert.deepEqual(report.findings.map(describe), []);
    });
  }
  // No scenario loses every management server (mgmd-failover has a second): this run does, so "last seen" is checked.
  test(`oracle: steady at ${dataNodes} data nodes, its only management server stopped, keeps every invariant`, { skip: NO_BROWSER ?? false }, async () => {
    const { dir, browser } = suite();
    const report = await runOracle(browser, dir, {
      scenario: 'steady',
      name: 'mgmd-lost',
      dataNodes,
      seconds,
      speed,
      plant: async (stack) => {
        const only = stack.simulator.mgmds[0];
        if (only) setTimeout(() => void stack.simulator.stopMgmd(only.nodeId), 2000);
      },
    });
    assert.ok(report.frames.some((f) => f.after.connection.status !== 'live'), 'the management server was lost while the oracle looked');
    assert.deepEqual(report.findings.map(describe), []);
  });
}
