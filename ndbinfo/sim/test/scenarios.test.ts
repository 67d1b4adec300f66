import assert from 'node:assert/strict';
import { test } from 'node:test';
import mysql from 'mysql2/promise';
import { COLLAPSE_TIMING } from '../../../native-mgm/sim/scenarios/collapse.js';
import { RESTART_PHASE_COLUMNS } from '../../schema/tables.js';
import { startSqlSimulator, type SqlSimulator } from '../index.js';

type Row = Record<string, number | string>;

async function withSim(options: Parameters<typeof startSqlSimulator>[0], body: (sim: SqlSimulator, query: (sql: string) => Promise<Row[]>) => Promise<void>): Promise<void> {
  const sim = await startSqlSimulator({ ...options, sql: { port: 0 } });
  const conn = await mysql.createConnection({ host: '127.0.0.1', port: sim.sql!.port, user: 'root', database: 'ndbinfo' });
  try {
    await body(sim, async (sql) => (await conn.query(sql))[0] as Row[]);
  } finally {
    await conn.end();
    await sim.close();
  }
}

/** Polls (in real time, while the sped-up simulator runs) until `check` gives a value, at most `seconds`. */
async function until<T>(seconds: number, check: () => Promise<T | null>, everyMs = 100): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const v = await check();
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

const BUSY = 'cs.thread_exec + cs.thread_send';
const CPU = `SELECT cs.node_id, ts.thread_name, ${BUSY} AS busy FROM cpustat cs JOIN threads ts ON cs.node_id = ts.node_id AND cs.thr_no = ts.thr_no`;

test('flexasynch: the LDM threads are the hottest and near saturation; transporter bytes agree at both ends', async () => {
  await withSim({ scenario: 'flexasynch', dataNodes: 2, speed: 10 }, async (sim, query) => {
    // The first phase (insert) starts once the cluster is up; wait until the load is on.
    await until(20, async () => (sim.model.currentLoad().writesPerSec > 0 ? true : null));
    await new Promise((r) => setTimeout(r, 300));
    const rows = await query(CPU);
    for (const node of [2, 3]) {
      const mine = rows.filter((r) => r['node_id'] === node);
      const ldm = mine.filter((r) => r['thread_name'] === 'ldm').map((r) => Number(r['busy']));
      const others = mine.filter((r) => r['thread_name'] !== 'ldm').map((r) => Number(r['busy']));
      assert.equal(ldm.length, 4);
      assert.ok(Math.min(...ldm) >= 80, `node ${node} LDM threads near saturation: ${ldm.join(', ')}`);
      assert.ok(Math.max(...others) < Math.min(...ldm), `node ${node}: LDM hottest (${ldm.join(', ')} vs ${others.join(', ')})`);
    }
    const links = await query("SELECT node_id, remote_node_id, bytes_sent, bytes_received FROM transporters WHERE remote_node_id IN (2, 3) AND node_id IN (2, 3)");
    const a = links.find((l) => l['node_id'] === 2)!;
    const b = links.find((l) => l['node_id'] === 3)!;
    assert.ok(Number(a['bytes_sent']) > 1e6, 'replication traffic flows between the two replicas');
    assert.equal(a['bytes_sent'], b['bytes_received']);
  });
});

test('collapse: during the cliff the data nodes threads are nearly idle', async () => {
  await withSim({ scenario: 'collapse', dataNodes: 2, speed: 60 }, async (sim, query) => {
    const peak = 6000 * 2 * 10;
    // After the fall, throughput is 12 % of the last step's and stays there for the rest of the step.
    await until(30, async () => {
      const reads = sim.model.currentLoad().readsPerSec;
      return reads > 0 && reads < peak * COLLAPSE_TIMING.remaining * 1.05 ? true : null;
    });
    const rows = await query(CPU);
    assert.equal(rows.length, 22);
    for (const r of rows) assert.ok(Number(r['busy']) < 15, `${String(r['node_id'])}/${String(r['thread_name'])} busy ${String(r['busy'])} %`);
  });
});

test('a restart fills restart_info: phases in progress, then complete, adding up to the total', async () => {
  await withSim({ scenario: 'idle', dataNodes: 2, speed: 10 }, async (sim, query) => {
    assert.deepEqual(await query('SELECT * FROM restart_info'), []);
    const restart = sim.model.restartNode(3);
    const during = await until(10, async () => {
      const [r] = await query('SELECT * FROM restart_info WHERE node_id = 3');
      return r && Number(r['node_restart_status_int']) > 4 && r['node_restart_status'] !== 'Restart completed' ? r : null;
    });
    assert.ok(Number(during['secs_wait_subscription_handover']) === 0, 'a phase not reached yet is 0');
    await restart;
    const [done] = await until(20, async () => {
      const rows = await query('SELECT * FROM restart_info WHERE node_id = 3');
      return rows[0]?.['node_restart_status'] === 'Restart completed' ? rows : null;
    });
    assert.equal(done!['node_restart_status_int'], 19);
    const secs = (c: string): number => Number(done![c]);
    const sequential = RESTART_PHASE_COLUMNS.filter((c) => c !== 'secs_for_local_recovery');
    assert.equal(sequential.reduce((s, c) => s + secs(c), 0), secs('total_restart_secs'));
    assert.equal(secs('secs_for_local_recovery'), secs('secs_restore_fragments') + secs('secs_undo_disk_data') + secs('secs_exec_redo_log') + secs('secs_index_rebuild'));
    // Process restart (1.5 s) + memory (1 s) + 9 phases of 0.6 s + data copy (4 s): at least 11 s of sim time (more
    // when a loaded machine runs the simulator's timers late).
    assert.ok(secs('total_restart_secs') >= 11, `total ${secs('total_restart_secs')} s`);
    assert.ok(secs('secs_to_allocate_node_id') >= 1, 'the new process connects after the old one went away');
  });
});

test('redo-pressure: redo fill climbs over minutes of sim time, warning level well before critical, then checkpoints trim it', async () => {
  // The climb is minutes of sim time (a 4 GiB log filled a little faster than checkpoints free it): at speed 20 about
  // 8 s here, polled every 30 ms (0.6 s of sim time), well under the 80-to-90 % gap this test asks for.
  await withSim({ scenario: 'redo-pressure', dataNodes: 2, speed: 20 }, async (sim, query) => {
    const FILL = 'SELECT node_id, SUM(used) / SUM(total) AS fill FROM logspaces WHERE log_type = \'REDO\' GROUP BY node_id';
    const seen: number[] = [];
    const reached = new Map<number, number>();
    const start = sim.model.clock.now();
    const peak = await until(40, async () => {
      const fill = Math.max(...(await query(FILL)).map((r) => Number(r['fill'])));
      seen.push(fill);
      for (const mark of [0.8, 0.9]) if (!reached.has(mark) && fill >= mark) reached.set(mark, sim.model.clock.now());
      return fill >= 0.9 ? fill : null;
    }, 30);
    assert.ok(peak >= 0.9 && peak <= 1);
    assert.ok(seen.some((f) => f > 0.05 && f < 0.8), 'the fill climbed through intermediate levels');
    const [at80, at90] = [reached.get(0.8)!, reached.get(0.9)!];
    assert.ok(at80 - start >= 60_000, `80 % after ${Math.round((at80 - start) / 1000)} s of sim time: the log fills over minutes`);
    assert.ok(at90 - at80 >= 10_000, `80 % and 90 % ${Math.round((at90 - at80) / 1000)} s of sim time apart: the warning comes first`);
    const [speed] = await query('SELECT MAX(redo_speed_last_10sec) AS redo, MAX(current_target_disk_write_speed) AS target, MAX(slowdowns_due_to_io_lag) AS lag FROM disk_write_speed_aggregate_node');
    assert.ok(Number(speed!['redo']) > Number(speed!['target']), 'over the last 10 s redo was written faster than checkpoints write');
    assert.ok(Number(speed!['lag']) > 0);
    const trimmed = await until(40, async () => {
      const fill = Math.max(...(await query(FILL)).map((r) => Number(r['fill'])));
      return fill < 0.3 ? fill : null;
    });
    assert.ok(trimmed < 0.3);
  });
});

test('congested-network: bursts past the network overload and slow down transporters, counted once per episode; calm clears them', async () => {
  await withSim({ scenario: 'congested-network', dataNodes: 2, speed: 20 }, async (sim, query) => {
    const [a, b] = [...sim.model.data.keys()];
    const LINKS = `SELECT node_id, remote_node_id, overloaded, overload_count, slowdown, slowdown_count FROM transporters WHERE node_id IN (${a}, ${b}) AND remote_node_id IN (${a}, ${b})`;
    const over = await until(40, async () => {
      const rows = await query(LINKS);
      return rows.length === 2 && rows.every((r) => Number(r['overloaded']) === 1 && Number(r['slowdown']) === 1) ? rows : null;
    }, 30);
    assert.ok(over.every((r) => Number(r['overload_count']) >= 1 && Number(r['slowdown_count']) >= 1), JSON.stringify(over));
    const [details] = await query(`SELECT MAX(sendbuffer_used_bytes) AS used FROM transporter_details WHERE node_id = ${a} AND remote_node_id = ${b}`);
    assert.ok(Number(details!['used']) > 0.8 * 2 * 1024 * 1024, `send buffer ${String(details!['used'])} bytes`);
    const calm = await until(40, async () => {
      const rows = await query(LINKS);
      return rows.every((r) => Number(r['overloaded']) === 0 && Number(r['slowdown']) === 0) ? rows : null;
    }, 30);
    // One burst, one episode each: the count went up when the state came on, not at every step it stayed on.
    assert.ok(calm.every((r) => Number(r['overload_count']) === Number(over.find((o) => o['node_id'] === r['node_id'])!['overload_count'])), JSON.stringify(calm));
    // The API and management links stay clear: only the replication links between the node group's members back up.
    const others = await query(`SELECT MAX(overload_count) AS n FROM transporters WHERE remote_node_id NOT IN (${a}, ${b})`);
    assert.equal(Number(others[0]!['n']), 0);
  });
});

test('heartbeat-failure: before its heartbeats stop, the starving node\'s main thread shows busy in cpustat with its OS time stolen', async () => {
  await withSim({ scenario: 'heartbeat-failure', dataNodes: 2, speed: 5 }, async (sim, query) => {
    // The starvation begins after 20 s of sim time (4 s here) and lasts 30 s (6 s) before the node is declared dead.
    const starving = await until(30, async () => [...sim.model.activity.threadPressure.keys()][0] ?? null, 50);
    const MAIN = `SELECT cs.node_id, cs.thread_exec, cs.OS_user FROM cpustat cs JOIN threads ts ON cs.node_id = ts.node_id AND cs.thr_no = ts.thr_no WHERE ts.thread_name = 'main'`;
    const rows = await query(MAIN);
    assert.equal(sim.model.dataNode(starving).status, 'STARTED');
    const mine = rows.find((r) => r['node_id'] === starving)!;
    const other = rows.find((r) => r['node_id'] !== starving)!;
    assert.ok(Number(mine['thread_exec']) >= 90, `node ${starving} main thread exec ${String(mine['thread_exec'])} %`);
    assert.ok(Number(mine['OS_user']) <= Number(mine['thread_exec']) / 2, `OS user ${String(mine['OS_user'])} % of exec ${String(mine['thread_exec'])} %`);
    assert.ok(Number(other['thread_exec']) < 20, `the neighbour's main thread is not starved: ${String(other['thread_exec'])} %`);
  });
});

test('gcp-stop: the slow node\'s redo reaches disk at a fifth of its rate, its LCP writes stop, its redo buffer fills', async () => {
  await withSim({ scenario: 'gcp-stop', dataNodes: 2, speed: 10 }, async (sim, query) => {
    const slow = 3; // the data node that is not the master
    await until(30, async () => (Number.isFinite(sim.model.activity.redoLog(slow).diskBytesPerSec) ? true : null), 50);
    // Ten seconds of sim time on the slow disk: the last-10 s figures are all from it.
    const since = sim.model.clock.now();
    await until(10, async () => (sim.model.clock.now() - since >= 11_000 ? true : null), 50);
    const speeds = await query('SELECT node_id, redo_speed_last_10sec AS redo, backup_lcp_speed_last_sec AS lcp FROM disk_write_speed_aggregate_node');
    const [mine, other] = [speeds.find((r) => r['node_id'] === slow)!, speeds.find((r) => r['node_id'] !== slow)!];
    assert.ok(Number(mine['redo']) <= Number(other['redo']) * 0.3, `redo ${String(mine['redo'])} B/s against ${String(other['redo'])} B/s`);
    assert.equal(Number(mine['lcp']), 0);
    const buffered = async (): Promise<number> => Number((await query(`SELECT SUM(used) AS used FROM logbuffers WHERE log_type = 'REDO' AND node_id = ${slow}`))[0]!['used']);
    const first = await buffered();
    await until(10, async () => ((await buffered()) > first ? true : null), 50);
    assert.equal(sim.model.dataNode(slow).status, 'STARTED', 'the GCP stop comes 120 s of sim time later');
  });
});
