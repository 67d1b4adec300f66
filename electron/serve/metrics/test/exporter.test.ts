import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { after, test } from 'node:test';
import WebSocket from 'ws';
import { decodeConfig } from '../../../../native-mgm/config/index.js';
import { REFERENCE_BLOB } from '../../../../native-mgm/config/test/reference-blob.js';
import { createEngine } from '../../../engine/create-engine.js';
import { startServeServer } from '../../serve-server.js';
import { httpGet } from '../../test/helpers.js';
import { parsePrometheusText, type Sample } from '../../test/prom-text.js';
import { createMetricsExporter } from '../exporter.js';
import { scrapeLargest, SyntheticClusters } from './synthetic-engine.js';

const clusters = new SyntheticClusters();
const prod = clusters.add({ name: 'prod', dataNodes: 4, apiNodes: 2, mgmNodes: 1, replicas: 2 });
const exporter = createMetricsExporter(clusters.engine.handlers);
after(() => clusters.engine.close());

async function scrape(cluster?: string): Promise<{ samples: Sample[]; body: string }> {
  const result = await exporter.scrape(cluster);
  assert.ok(result.ok, result.ok ? '' : result.message);
  return { samples: parsePrometheusText(result.body).samples, body: result.body };
}

const value = (samples: Sample[], name: string, labels: Record<string, string>): number | undefined =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

test('every family has HELP and TYPE, counters end in _total, units are base units, label values are snake_case', async () => {
  clusters.report(prod, clusters.dataNodes(prod), 2, 10);
  const { body, samples } = await scrape();
  const help = new Set([...body.matchAll(/^# HELP (\S+) \S/gm)].map((m) => m[1]));
  const types = new Map([...body.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1] ?? '', m[2] ?? '']));
  const family = (name: string): string => (types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, ''));
  for (const s of samples) {
    assert.ok(help.has(family(s.name)), `no HELP for ${s.name}`);
    assert.ok(types.has(family(s.name)), `no TYPE for ${s.name}`);
  }
  for (const [name, type] of types) {
    if (!name.startsWith('ndbtop_')) continue;
    assert.equal(type === 'counter', name.endsWith('_total'), `${name} is a ${type}`);
    assert.doesNotMatch(name, /percent|_ms$|milliseconds|per_second/, `${name}: base units only, rates are PromQL's job`);
  }
  for (const s of samples.filter((x) => x.name.startsWith('ndbtop_'))) {
    for (const key of ['status', 'state', 'health', 'node_type', 'kind', 'memory', 'severity']) {
      const v = s.labels[key];
      if (v !== undefined) assert.match(v, /^[a-z0-9_]+$/, `${s.name}{${key}="${v}"}`);
    }
  }
  assert.equal(value(samples, 'ndbtop_build_info', { version: '9.9.9-test', nodejs_version: process.versions.node }), 1);
  assert.equal(value(samples, 'ndbtop_node_status', { node_id: '2', node_type: 'ndb', status: 'started' }), 1);
  assert.equal(value(samples, 'ndbtop_node_status', { node_id: '2', status: 'single_user_mode' }), 0);
  assert.equal(value(samples, 'ndbtop_node_memory_total_bytes', { node_id: '2', memory: 'data' }), 65536 * 32768);
  assert.ok(samples.some((s) => s.name === 'process_start_time_seconds'), 'the process metrics of the exporter itself');
});

test('_total counters add up every instance of a node and carry on across its restart; no in-flight gauge while it is down', async () => {
  const ids = clusters.dataNodes(prod);
  const before = await scrape('prod');
  const base = (id: number): number => value(before.samples, 'ndbtop_ndb_transactions_total', { node_id: String(id) }) ?? NaN;
  const node = ids[1] as number;
  const start = base(node);

  clusters.report(prod, ids, 4, 25);
  let now = await scrape('prod');
  assert.equal(value(now.samples, 'ndbtop_ndb_transactions_total', { node_id: String(node) }), start + 100, 'four instances of 25 each');
  assert.equal(value(now.samples, 'ndbtop_ndb_operations_total', { node_id: String(node) }), (value(before.samples, 'ndbtop_ndb_operations_total', { node_id: String(node) }) ?? 0) + 4 * 200);
  assert.ok(value(now.samples, 'ndbtop_ndb_concurrent_operations', { node_id: String(node) }) !== undefined);

  clusters.setStatus(prod, node, 'NO_CONTACT');
  clusters.report(prod, ids.filter((id) => id !== node), 4, 25);
  now = await scrape('prod');
  assert.equal(value(now.samples, 'ndbtop_node_status', { node_id: String(node), status: 'no_contact' }), 1);
  assert.equal(value(now.samples, 'ndbtop_ndb_transactions_total', { node_id: String(node) }), start + 100, 'a node that is down keeps its total');
  assert.equal(value(now.samples, 'ndbtop_ndb_concurrent_operations', { node_id: String(node) }), undefined, 'no current value for a node that is down');
  assert.ok(value(now.samples, 'ndbtop_ndb_concurrent_operations', { node_id: String(ids[0]) }) !== undefined);

  clusters.setStatus(prod, node, 'STARTING');
  clusters.setStatus(prod, node, 'STARTED');
  // After a restart the node's own counters start again from zero; its deltas simply go on adding here.
  clusters.report(prod, [node], 4, 1);
  now = await scrape('prod');
  assert.equal(value(now.samples, 'ndbtop_ndb_transactions_total', { node_id: String(node) }), start + 104);
  assert.equal(value(now.samples, 'ndbtop_ndb_statistics_reports_total', { node_id: String(node) }), (value(before.samples, 'ndbtop_ndb_statistics_reports_total', { node_id: String(node) }) ?? 0) + 2 * 8, 'TC and LQH records, 4 instances each, twice');
});

test('an alert raised by ndbtop counts in ndbtop_alerts_raised_total, every kind exported from zero', async () => {
  const { samples } = await scrape('prod');
  const raised = samples.filter((s) => s.name === 'ndbtop_alerts_raised_total');
  assert.ok(raised.some((s) => s.labels.kind === 'arbitration' && s.labels.severity === 'critical' && s.value === 0));
  // The restart above: a data node left STARTED without a requested stop.
  assert.equal(value(samples, 'ndbtop_alerts_raised_total', { kind: 'node_down', severity: 'critical' }), 1);
  assert.equal(value(samples, 'ndbtop_alerts_raised_total', { kind: 'node_group_degraded', severity: 'warning' }), 1);
});

test('every family carries the cluster label; ?cluster= narrows to one cluster by name or id, an unknown one is 404', async () => {
  const staging = clusters.add({ name: 'staging', dataNodes: 2, apiNodes: 0, mgmNodes: 1, replicas: 2 });
  const all = await scrape();
  const names = new Set(all.samples.filter((s) => s.name.startsWith('ndbtop_') && s.name !== 'ndbtop_build_info').map((s) => s.labels.cluster));
  assert.deepEqual([...names].sort(), ['prod', 'staging']);
  for (const pick of ['staging', staging]) {
    const one = await scrape(pick);
    const seen = new Set(one.samples.filter((s) => s.labels.cluster !== undefined).map((s) => s.labels.cluster));
    assert.deepEqual([...seen], ['staging'], pick);
    assert.equal(value(one.samples, 'ndbtop_build_info', {}), 1);
  }
  // A second cluster of the same name must not merge into the first: both get their ids in the label.
  const twin = clusters.add({ name: 'staging', dataNodes: 2, apiNodes: 0, mgmNodes: 1, replicas: 2 });
  const twins = await scrape('staging');
  const labelled = new Set(twins.samples.filter((s) => s.name === 'ndbtop_ndb_transactions_total').map((s) => s.labels.cluster));
  assert.deepEqual([...labelled].sort(), [`staging (${staging})`, `staging (${twin})`]);
  clusters.engine.removeCluster(twin);
  const missing = await exporter.scrape('nope');
  assert.deepEqual(missing, { ok: false, status: 404, message: 'no cluster named "nope" is watched' });
  clusters.engine.removeCluster(staging);
  const gone = await scrape();
  assert.ok(!gone.samples.some((s) => s.labels.cluster === 'staging'), 'a cluster no longer watched stops being exported');
});

test('--metrics-only serves /metrics behind the token and nothing else', async () => {
  const token = 'metrics-only-token-123';
  const server = await startServeServer({ engine: clusters.engine, staticDir: '/nonexistent', host: '127.0.0.1', port: 0, token, metricsOnly: true });
  try {
    const auth = { Authorization: `Bearer ${token}` };
    assert.equal((await httpGet(server.port, '/metrics')).status, 401);
    const metrics = await httpGet(server.port, '/metrics?cluster=prod', auth);
    assert.equal(metrics.status, 200);
    assert.ok(parsePrometheusText(metrics.body).samples.some((s) => s.name === 'ndbtop_node_status'));
    assert.equal((await httpGet(server.port, '/metrics?cluster=nope', auth)).status, 404);
    assert.match((await httpGet(server.port, '/', auth)).body, /\/metrics/);
    for (const path of ['/api/snapshot', '/index.html', '/ws']) assert.equal((await httpGet(server.port, path, auth)).status, 404, path);
    const upgrade = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws`, { headers: auth });
      ws.once('open', () => resolve('open'));
      ws.once('unexpected-response', (_req, res) => resolve(`HTTP ${res.statusCode}`));
      ws.once('error', () => resolve('refused'));
    });
    assert.notEqual(upgrade, 'open');
  } finally {
    await server.close();
  }
});

test('cardinality at 144 data + 109 API + 2 management nodes: bounded and per node', async () => {
  const ours = (await scrapeLargest()).filter((s) => s.name.startsWith('ndbtop_'));
  const count = (name: string): number => ours.filter((s) => s.name === name).length;
  assert.equal(count('ndbtop_node_status'), 144 * 9 + 111 * 3, 'data nodes: every state but CONNECTED; API and MGM: three');
  assert.equal(count('ndbtop_ndb_transactions_total'), 144);
  assert.equal(count('ndbtop_node_memory_used_bytes'), 144 * 2);
  assert.equal(count('ndbtop_node_info'), 255);
  assert.ok(ours.length < 6000, `${ours.length} series`);
});

test('a scrape never waits on the cluster: a management server that accepts and never answers still gets /metrics at once', async (t) => {
  const sockets: Socket[] = [];
  const silent = createServer((socket) => void sockets.push(socket));
  silent.listen(0, '127.0.0.1');
  await once(silent, 'listening');
  t.after(() => {
    for (const socket of sockets) socket.destroy();
    silent.close();
  });
  const address = silent.address();
  assert.ok(address && typeof address !== 'string');
  const engine = await createEngine({ host: 'serve', clusters: [{ name: 'stalled', connectstring: `127.0.0.1:${address.port}` }], requestTimeoutMs: 600_000 });
  t.after(() => engine.close());
  await new Promise<void>((resolve) => {
    const waitForDial = (): void => void (sockets.length > 0 ? resolve() : setTimeout(waitForDial, 20));
    waitForDial();
  });
  // The engine's request to the silent server is outstanding for ten minutes; the scrape answers from state.
  const result = await createMetricsExporter(engine.handlers).scrape();
  assert.ok(result.ok);
  const samples = parsePrometheusText(result.body).samples;
  assert.equal(value(samples, 'ndbtop_connection_state', { cluster: 'stalled', state: 'connecting' }), 1);
  assert.equal(samples.filter((x) => x.name === 'ndbtop_node_status').length, 0, 'no nodes known yet, none made up');
});

test('the configuration generation and the TLS certificates\' expiry are exported once the engine knows them', async () => {
  const secure = clusters.add({ name: 'secure', dataNodes: 2, apiNodes: 1, mgmNodes: 1, replicas: 2 });
  const before = (await scrape('secure')).samples;
  assert.equal(value(before, 'ndbtop_config_generation', { cluster: 'secure' }), undefined, 'no generation before a configuration was read');
  assert.equal(value(before, 'ndbtop_tls_secured', { cluster: 'secure' }), undefined, 'no TLS figures for a connection without TLS');

  const config = decodeConfig(REFERENCE_BLOB);
  clusters.engine.feed(secure, { kind: 'config', t: clusters.now, config: { ...config, generation: 7 } });
  const cert = (subject: string, validTo: number) => ({ subject, issuer: 'CN=NDB Cluster CA', serial: '0A', validFrom: validTo - 365 * 86_400_000, validTo, hostnames: [] });
  const tls = { mode: 'strict' as const, secured: true, clearTextReason: null, protocol: 'TLSv1.3', server: cert('CN=mgmd', 1_900_000_000_000), client: cert('CN=api', 1_850_000_000_000), problem: null, expiryWarnDays: 30, stats: null, certs: [], statsAt: null };
  const connection = { status: 'live' as const, connectstring: 'secure.example:1186', mgmd: { host: 'mgmd', port: 1186, nodeId: 1, since: clusters.now }, serverVersion: '8.4.3', failovers: 0, lastError: null, eventStream: { status: 'live' as const }, tls };
  clusters.engine.feed(secure, { kind: 'connection', t: clusters.now, connection });
  clusters.poll(secure);

  const { samples } = await scrape('secure');
  assert.equal(value(samples, 'ndbtop_config_generation', { cluster: 'secure' }), 7);
  assert.equal(value(samples, 'ndbtop_tls_secured', { cluster: 'secure' }), 1);
  assert.equal(value(samples, 'ndbtop_tls_certificate_expiry_timestamp_seconds', { cluster: 'secure', peer: 'server' }), 1_900_000_000);
  assert.equal(value(samples, 'ndbtop_tls_certificate_expiry_timestamp_seconds', { cluster: 'secure', peer: 'client' }), 1_850_000_000);
});

test('a node up whose reports stopped has no in-flight gauge once the engine marks its rates stale, and has it again when they resume', async () => {
  const ids = clusters.dataNodes(prod);
  const quiet = ids[2] as number;
  const others = ids.filter((id) => id !== quiet);
  const gauge = (samples: Sample[], id: number): number | undefined => value(samples, 'ndbtop_ndb_concurrent_operations', { node_id: String(id) });
  clusters.report(prod, ids, 4, 10);
  assert.ok(gauge((await scrape('prod')).samples, quiet) !== undefined);
  // Three periods with reports from every node but one: its newest report is over two periods old.
  for (let i = 0; i < 3; i++) clusters.report(prod, others, 4, 10);
  let now = await scrape('prod');
  assert.equal(value(now.samples, 'ndbtop_node_status', { node_id: String(quiet), status: 'started' }), 1, 'the node is up');
  assert.equal(gauge(now.samples, quiet), undefined, 'its last in-flight count is not a current one');
  assert.ok(others.every((id) => gauge(now.samples, id) !== undefined));
  clusters.report(prod, ids, 4, 10);
  now = await scrape('prod');
  assert.ok(gauge(now.samples, quiet) !== undefined, 'reporting again');
});

test('a node missing from a memory refresh has no memory-used gauge, its configured total stays, and the gauge is back when it answers', async () => {
  const ids = clusters.dataNodes(prod);
  const quiet = ids[1] as number;
  const used = (samples: Sample[], id: number): number | undefined => value(samples, 'ndbtop_node_memory_used_bytes', { node_id: String(id), memory: 'data' });
  assert.equal(used((await scrape('prod')).samples, quiet), (1000 + quiet) * 32768);
  clusters.refreshMemory(prod, ids.filter((id) => id !== quiet));
  let now = await scrape('prod');
  assert.equal(used(now.samples, quiet), undefined, 'its last figures are not current ones');
  assert.equal(value(now.samples, 'ndbtop_node_memory_total_bytes', { node_id: String(quiet), memory: 'data' }), 65536 * 32768);
  assert.ok(ids.filter((id) => id !== quiet).every((id) => used(now.samples, id) !== undefined));
  clusters.refreshMemory(prod, ids);
  now = await scrape('prod');
  assert.equal(used(now.samples, quiet), (1000 + quiet) * 32768, 'answering again');
});
