import assert from 'node:assert/strict';
import { once } from 'node:events';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startSimulator } from '../../../../native-mgm/sim/index.js';
import { spawnCli } from '../../../cli/test/run-cli.js';
import { httpGet } from '../../test/helpers.js';
import { parsePrometheusText } from '../../test/prom-text.js';
import { dashboardQueries, readDashboard } from './grafana-dashboard.js';
import { DEPLOY, promtool } from './prometheus-process.js';
import { scrapeLargest } from './synthetic-engine.js';

const PROMETHEUS = join(DEPLOY, 'prometheus');

async function withTempDir<T>(run: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'ndbtop-deploy-'));
  try {
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('promtool: the alerting rules are valid and pass their unit tests', () => {
  const check = promtool(['check', 'rules', 'ndbtop-alerts.yml'], PROMETHEUS);
  assert.equal(check.code, 0, check.output);
  assert.match(check.output, /SUCCESS: 16 rules found/);
  const unit = promtool(['test', 'rules', 'ndbtop-alerts.test.yml'], PROMETHEUS);
  assert.equal(unit.code, 0, unit.output);
});

test('promtool: the example scrape configuration is valid, with its rule file and a token file in place', async () => {
  const syntax = promtool(['check', 'config', '--syntax-only', 'prometheus.yml'], PROMETHEUS);
  assert.equal(syntax.code, 0, syntax.output);
  await withTempDir(async (dir) => {
    // The example points at /etc/prometheus/ndbtop.token; the full check wants that file to exist.
    const config = (await readFile(join(PROMETHEUS, 'prometheus.yml'), 'utf8')).replaceAll('/etc/prometheus/ndbtop.token', join(dir, 'ndbtop.token'));
    await writeFile(join(dir, 'prometheus.yml'), config);
    await writeFile(join(dir, 'ndbtop.token'), 'a-token-of-some-length');
    await copyFile(join(PROMETHEUS, 'ndbtop-alerts.yml'), join(dir, 'ndbtop-alerts.yml'));
    const full = promtool(['check', 'config', 'prometheus.yml'], dir);
    assert.equal(full.code, 0, full.output);
    assert.match(full.output, /SUCCESS: 16 rules found/);
  });
});

test('the Grafana dashboard: valid JSON, unique panel ids, panels on the grid, and every PromQL expression parses', async () => {
  const dashboard = readDashboard();
  const ids = dashboard.panels.map((p) => p.id);
  assert.equal(new Set(ids).size, ids.length, `duplicate panel ids: ${ids.join(',')}`);
  for (const p of dashboard.panels) {
    assert.ok(Number.isInteger(p.id) && p.id > 0, `panel "${p.title}" id`);
    assert.ok(p.gridPos.x >= 0 && p.gridPos.x + p.gridPos.w <= 24 && p.gridPos.h > 0, `panel ${p.id} gridPos`);
    assert.ok((p.targets ?? []).length > 0, `panel ${p.id} has no query`);
  }
  const types = new Set(dashboard.panels.map((p) => p.type));
  for (const wanted of ['table', 'timeseries', 'stat', 'heatmap']) assert.ok(types.has(wanted), `a ${wanted} panel`);
  assert.ok(dashboard.annotations.list.some((a) => /restart/i.test(a.name) && a.expr), 'restarts as annotations');

  const queries = dashboardQueries(dashboard, 'prod', '1m');
  assert.ok(queries.length >= dashboard.panels.length);
  // promtool parses PromQL when it checks rules: each expression becomes a recording rule of its own.
  const rules = ['groups:', '  - name: grafana-dashboard', '    rules:', ...queries.flatMap((q, i) => [`      - record: ndbtop_dashboard_query_${i}`, `        expr: ${JSON.stringify(q.expr)}`])].join('\n');
  await withTempDir(async (dir) => {
    await writeFile(join(dir, 'queries.yml'), `${rules}\n`);
    const check = promtool(['check', 'rules', 'queries.yml'], dir);
    assert.equal(check.code, 0, `${check.output}\n${queries.map((q) => `${q.where}: ${q.expr}`).join('\n')}`);
  });
});

test('every ndbtop_ metric named in the rules and the dashboard is one ndbtop exports', async () => {
  const exported = new Set((await scrapeLargest({ ndbinfo: true })).map((s) => s.name));
  for (const file of [join(PROMETHEUS, 'ndbtop-alerts.yml'), join(DEPLOY, 'grafana', 'ndbtop-dashboard.json')]) {
    const named = new Set((await readFile(file, 'utf8')).match(/\bndbtop_[a-z_]+/g));
    for (const name of named) assert.ok(exported.has(name), `${file} uses ${name}, which ndbtop does not export`);
  }
});

test('the systemd unit: its ExecStart with the example environment runs a token-protected, metrics-only exporter', async (t) => {
  const unit = await readFile(join(DEPLOY, 'systemd', 'ndbtop-exporter.service'), 'utf8');
  const exec = /^ExecStart=(.*)$/m.exec(unit)?.[1]?.split(/\s+/) ?? [];
  const cliAt = exec.findIndex((w) => w.endsWith('/dist/ndbtop.mjs'));
  assert.ok(cliAt > 0, `ExecStart runs the CLI: ${exec.join(' ')}`);
  const env: Record<string, string> = {};
  for (const line of (await readFile(join(DEPLOY, 'systemd', 'ndbtop.env'), 'utf8')).split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line);
    if (m?.[1]) env[m[1]] = m[2] ?? '';
  }
  assert.ok((env.NDBTOP_TOKEN ?? '').length >= 8 && env.NDB_CONNECTSTRING, 'the example sets the token and the connect string');
  const sim = await startSimulator({ dataNodes: 2, replicas: 2 });
  t.after(() => sim.close());
  // Only what cannot work here changes: the cluster is the simulator's, the port a free one.
  Object.assign(env, { NDB_CONNECTSTRING: sim.connectstring, NDBTOP_PORT: '0' });
  const args = exec.slice(cliAt + 1).map((w) => w.replace(/\$\{([A-Z_]+)\}/g, (_, name: string) => env[name] ?? ''));
  const child = spawnCli(args, env);
  t.after(() => child.kill('SIGKILL'));
  let banner = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      banner += d.toString();
      const m = /listening on http:\/\/[^:]+:(\d+)\/[\s\S]*endpoints/.exec(banner);
      if (m?.[1]) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${banner}`)));
  });
  assert.match(banner, /\/metrics only/);
  assert.ok(!banner.includes(env.NDBTOP_TOKEN ?? ''), 'the token stays out of the service log');
  assert.equal((await httpGet(port, '/metrics')).status, 401);
  const metrics = await httpGet(port, '/metrics', { Authorization: `Bearer ${env.NDBTOP_TOKEN}` });
  assert.equal(metrics.status, 200);
  assert.ok(parsePrometheusText(metrics.body).samples.some((s) => s.name === 'ndbtop_build_info'));
  assert.equal((await httpGet(port, '/api/snapshot', { Authorization: `Bearer ${env.NDBTOP_TOKEN}` })).status, 404);
  child.kill('SIGTERM');
  const [code] = (await once(child, 'exit')) as [number | null];
  assert.equal(code, 0, 'stops cleanly on SIGTERM, as systemd stops it');
});
