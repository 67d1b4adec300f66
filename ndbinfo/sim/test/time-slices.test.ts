import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import mysql from 'mysql2/promise';
import { startSqlSimulator, type SqlSimulator } from '../index.js';
import { NdbinfoSql } from '../sql/engine.js';

// The largest cluster the simulator offers: transporter_details has a row per link, ~21,000 of them.
const DATA_NODES = 144;
const DETAILS = 'SELECT node_id, remote_node_id, trp_id, sendbuffer_used_bytes FROM ndbinfo.transporter_details ORDER BY node_id, remote_node_id, trp_id';

let sim: SqlSimulator;

before(async () => {
  sim = await startSqlSimulator({ scenario: 'steady', dataNodes: DATA_NODES, sql: { port: 0 } });
});

after(async () => {
  await sim.close();
});

/** How many times the event loop turned while `work` ran. */
async function turnsDuring<T>(work: Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let done = false;
  const spin = async (): Promise<void> => {
    while (!done) {
      await nextTurn();
      turns++;
    }
  };
  const spinning = spin();
  try {
    return { result: await work, turns };
  } finally {
    done = true;
    await spinning;
  }
}

test('a large statement is worked out a time slice at a time: the event loop turns while the SQL node fills and steps it', async () => {
  const sql = await NdbinfoSql.create(sim.model, '8.4.3-cluster');
  try {
    const session = { database: 'ndbinfo', user: 'root', host: 'localhost', connectionId: 1 };
    const { result, turns } = await turnsDuring(sql.execute(DETAILS, session));
    assert.equal(result.kind, 'result');
    const rows = result.kind === 'result' ? result.result.rows : [];
    // Every running data node has a link to each other node of the cluster.
    const others = sim.model.data.size + sim.model.mgm.size + sim.model.api.size - 1;
    assert.equal(rows.length, DATA_NODES * others);
    assert.ok(turns > 1, `the loop turned ${turns} times while ${rows.length} rows were filled and read`);
  } finally {
    await sql.close();
  }
});

test('statements from two connections run in turn, each answered whole; a client gone mid-answer leaves the others served', async () => {
  const connect = () => mysql.createConnection({ host: '127.0.0.1', port: sim.sql!.port, user: 'root', database: 'ndbinfo' });
  const [a, b, gone] = await Promise.all([connect(), connect(), connect()]);
  try {
    // Destroyed while its answer is still being written: the SQL node stops writing to it and goes on.
    void gone.query(DETAILS).catch(() => undefined);
    setImmediate(() => gone.destroy());
    const [[big], [small]] = await Promise.all([a.query(DETAILS), b.query('SELECT COUNT(*) AS n FROM ndbinfo.threads')]);
    const rows = big as Array<{ node_id: number; remote_node_id: number }>;
    assert.equal(rows.length, DATA_NODES * (sim.model.data.size + sim.model.mgm.size + sim.model.api.size - 1));
    assert.ok(rows.every((r, i) => i === 0 || r.node_id > rows[i - 1]!.node_id || (r.node_id === rows[i - 1]!.node_id && r.remote_node_id > rows[i - 1]!.remote_node_id)), 'in order');
    assert.ok((small as Array<{ n: number }>)[0]!.n >= DATA_NODES, 'every data node has threads');
    const [[after]] = (await b.query('SELECT 1 AS one')) as unknown as [[{ one: number }]];
    assert.equal(after.one, 1);
  } finally {
    await Promise.all([a.end(), b.end()]);
  }
});
