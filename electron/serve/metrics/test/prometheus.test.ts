import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startSqlSimulator, type SqlSimulator } from '../../../../ndbinfo/sim/index.js';
import { spawnCli } from '../../../cli/test/run-cli.js';
import { ClusterSnapshotSchema } from '../../../contract/schemas/snapshot.js';
import { waitFor } from '../../test/helpers.js';
import { dashboardQueries, readDashboard } from './grafana-dashboard.js';
import { DEPLOY, startPrometheus, type PrometheusProcess } from './prometheus-process.js';

/**
 * The real thing end to end: `ndbtop serve` (the CLI, in its own process) on the simulator, scraped by Debian's
 * Prometheus every second with the shipped alerting rules loaded. Only the rules' hold times (`for:`) are cut to a
 * second, so a test waits seconds and not minutes; the expressions are the shipped ones.
 */
const TOKEN = 'prometheus-scrape-token';
const DATA_NODES = 4;
const SPEED = 5;
/** Prometheus evaluates once a second; asking it more often only loads a shared machine. */
const POLL_MS = 250;
let sim: SqlSimulator;
let serve: ChildProcess;
let servePort: number;
let prometheus: PrometheusProcess;
let cluster: string;

async function snapshot(): Promise<ReturnType<typeof ClusterSnapshotSchema.parse>> {
  const res = await fetch(`http://127.0.0.1:${servePort}/api/snapshot`, { headers: { Authorization: `Bearer ${TOKEN}` } });
  assert.equal(res.status, 200);
  return ClusterSnapshotSchema.parse(await res.json());
}

const scalar = async (expr: string): Promise<number | undefined> => {
  const [first] = await prometheus.query(expr);
  return first ? Number(first.value[1]) : undefined;
};

before(async () => {
  // With its SQL node, so the ndbinfo families (and the rules and panels built on them) have series.
  sim = await startSqlSimulator({ scenario: 'steady', dataNodes: DATA_NODES, replicas: 2, tcInstances: 2, lqhInstances: 2, speed: SPEED, sql: { port: 0 } });
  serve = spawnCli(['serve', '-c', sim.connectstring, '--sql', `mysql://root@127.0.0.1:${sim.sql?.port}`, '--port', '0', '--poll', '500'], { NDBTOP_TOKEN: TOKEN });
  let banner = '';
  servePort = await new Promise<number>((resolve, reject) => {
    serve.stdout?.on('data', (d: Buffer) => {
      banner += d.toString();
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(banner);
      if (m?.[1]) resolve(Number(m[1]));
    });
    serve.once('exit', (code) => reject(new Error(`ndbtop serve exited ${code}: ${banner}`)));
  });
  const rules = readFileSync(join(DEPLOY, 'prometheus', 'ndbtop-alerts.yml'), 'utf8').replace(/^(\s+)for: \S+$/gm, '$1for: 1s');
  const config = [
    'global: { scrape_interval: 1s, evaluation_interval: 1s }',
    'rule_files: [ndbtop-alerts.yml]',
    'scrape_configs:',
    '  - job_name: ndbtop',
    '    authorization: { credentials_file: ndbtop.token }',
    `    static_configs: [{ targets: ['127.0.0.1:${servePort}'] }]`,
    '',
  ].join('\n');
  prometheus = await startPrometheus({ 'prometheus.yml': config, 'ndbtop-alerts.yml': rules, 'ndbtop.token': TOKEN });
  cluster = (await snapshot()).name;
});

after(async () => {
  await prometheus?.stop();
  if (serve && serve.exitCode === null) {
    serve.kill('SIGTERM');
    await once(serve, 'exit');
  }
  await sim?.close();
});

test('Prometheus scrapes ndbtop serve with the token as its authorization credentials: up == 1', async () => {
  const up = await waitFor(async () => ((await scalar('up{job="ndbtop"}')) === 1 ? 1 : undefined), 'up{job="ndbtop"} == 1', 60_000, POLL_MS);
  assert.equal(up, 1);
});

test('one series per data node for each counter, and every data node STARTED', async () => {
  await waitFor(async () => ((await scalar('count(ndbtop_node_status{node_type="ndb",status="started"} == 1)')) === DATA_NODES ? true : undefined), 'all data nodes started', 60_000, POLL_MS);
  assert.equal(await scalar('count(ndbtop_ndb_transactions_total)'), DATA_NODES);
  assert.equal(await scalar('count(ndbtop_node_info{node_type="ndb"})'), DATA_NODES);
  assert.equal(await scalar('count(ndbtop_ndb_operations_total)'), DATA_NODES);
});

test('rate(ndbtop_ndb_transactions_total[30s]) matches the transactions/s /api/snapshot shows, within a few per cent', async (t) => {
  // Once Prometheus has thirty seconds of scrapes, the dashboard's own 5 s windows are sampled over the thirty
  // seconds its rate is then asked over: the same stretch of the cluster (a starved simulator's rates drift).
  await waitFor(async () => (((await scalar('count_over_time(up{job="ndbtop"}[30s])')) ?? 0) >= 20 ? true : undefined), '30 s of scrapes', 60_000, POLL_MS);
  const start = Date.now();
  const shown: number[] = [];
  while (Date.now() - start < 30_000) {
    const rates = (await snapshot()).rates;
    if (rates) shown.push(rates.transactions);
    await new Promise((r) => setTimeout(r, 1000));
  }
  const scraped = await scalar('sum(rate(ndbtop_ndb_transactions_total[30s]))');
  assert.ok(scraped !== undefined && scraped > 0, `rate ${scraped}`);
  // The dashboard shows the simulated cluster's rates (each report is 5 s of its sim time); the counters add up
  // what was reported, and Prometheus divides by real seconds: SPEED times as many. On a real cluster, SPEED is 1.
  const dashboard = (SPEED * shown.reduce((a, b) => a + b, 0)) / shown.length;
  const off = Math.abs(scraped - dashboard) / dashboard;
  t.diagnostic(`Prometheus ${scraped.toFixed(0)}/s, /api/snapshot × ${SPEED} = ${dashboard.toFixed(0)}/s (mean of ${shown.length}), ${(off * 100).toFixed(2)} % apart`);
  assert.ok(off < 0.05, `Prometheus ${scraped.toFixed(0)}/s vs /api/snapshot × ${SPEED} = ${dashboard.toFixed(0)}/s: ${(off * 100).toFixed(1)} % apart`);
});

test('a data node failure in the simulator makes the shipped NdbDataNodeDown rule fire', async () => {
  const victim = [...sim.model.data.keys()][0] as number;
  sim.model.failNode(victim, { autoRestart: false });
  const firing = await waitFor(
    async () => (await prometheus.alerts()).find((a) => a.labels.alertname === 'NdbDataNodeDown' && a.state === 'firing' && a.labels.node_id === String(victim)),
    `NdbDataNodeDown firing for node ${victim}`,
    90_000,
    POLL_MS,
  );
  assert.equal(firing.labels.severity, 'critical');
  assert.equal(firing.labels.cluster, cluster);
  // Its node group lost a replica too.
  await waitFor(async () => ((await prometheus.alerts()).some((a) => a.labels.alertname === 'NdbNodeGroupDegraded' && a.state === 'firing') ? true : undefined), 'NdbNodeGroupDegraded firing', 90_000, POLL_MS);
  // The failed node's counter is still there, flat; no current in-flight figure is exported for it.
  assert.equal(await scalar(`count(ndbtop_ndb_transactions_total{node_id="${victim}"})`), 1);
  assert.equal(await scalar(`count(ndbtop_ndb_concurrent_operations{node_id="${victim}"})`), undefined);
});

test('the redo-fill and transporter-overload rules are loaded and healthy, and the series they read are scraped', async () => {
  const rules = await prometheus.rules();
  for (const name of ['NdbRedoLogFilling', 'NdbRedoLogNearlyFull', 'NdbTransporterOverloaded']) {
    const rule = rules.find((r) => r.name === name);
    assert.ok(rule, `${name} loaded: ${rules.map((r) => r.name).join(', ')}`);
    // Healthy once evaluated: the expression ran against what was scraped.
    await waitFor(async () => ((await prometheus.rules()).find((r) => r.name === name)?.health === 'ok' ? true : undefined), `${name} healthy`, 30_000, POLL_MS);
  }
  // One for every running data node; the node the test before failed (and left down) may keep its last one.
  const running = [...sim.model.data.values()].filter((n) => n.status === 'STARTED').map((n) => String(n.id));
  assert.ok(running.length >= DATA_NODES - 1);
  const nodesWithFill = async (): Promise<Set<string> | undefined> => {
    const ids = new Set((await prometheus.query(`ndbtop_ndbinfo_log_fill_ratio{cluster="${cluster}",log="redo"}`)).map((r) => r.metric.node_id ?? ''));
    return running.every((id) => ids.has(id)) ? ids : undefined;
  };
  const fill = await waitFor(nodesWithFill, 'a redo fill series for every running data node', 60_000, POLL_MS);
  assert.ok(fill.size <= DATA_NODES, `one series per data node, at most: ${[...fill].join(', ')}`);
  // Every data node's links to the other data nodes, the management server and the API nodes, each 0 or 1.
  const links = await prometheus.query(`ndbtop_ndbinfo_transporter_overloaded{cluster="${cluster}"}`);
  assert.ok(links.length >= DATA_NODES * (DATA_NODES - 1), `${links.length} link series`);
  assert.ok(links.every((l) => l.value[1] === '0' || l.value[1] === '1'));
});

test('every PromQL expression of the shipped Grafana dashboard runs against this Prometheus and finds data', async () => {
  for (const { where, expr } of dashboardQueries(readDashboard(), cluster, '30s')) {
    const result = await prometheus.query(expr);
    assert.ok(result.length > 0, `${where}: no data for ${expr}`);
  }
});
