import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import mysql, { type Connection, type FieldPacket } from 'mysql2/promise';
import { NDBINFO_TABLES } from '../../schema/tables.js';
import { startSqlSimulator, type SqlSimulator } from '../index.js';

/** ndb_top's query (ndb_top.cpp), with and without its node filter. */
const NDB_TOP = (node: string): string =>
  `SELECT cs.thr_no, ts.thread_name, cs.OS_user, cs.OS_system, cs.OS_idle, cs.thread_exec, cs.thread_send, cs.thread_buffer_full, cs.thread_sleeping, cs.elapsed_time FROM cpustat as cs, threads as ts WHERE ${node}cs.thr_no=ts.thr_no AND cs.node_id=ts.node_id`;

let sim: SqlSimulator;
let conn: Connection;
const warnings: string[] = [];
const originalError = console.error;

before(async () => {
  // mysql2 prints "Warning: got packets out of order" through console.error (and emits 'warn'): either fails the test.
  console.error = (...args: unknown[]) => {
    warnings.push(args.map(String).join(' '));
    originalError(...args);
  };
  sim = await startSqlSimulator({ scenario: 'steady', dataNodes: 4, speed: 5, sql: { port: 0 } });
  conn = await mysql.createConnection({ host: '127.0.0.1', port: sim.sql!.port, user: 'root', database: 'ndbinfo' });
  (conn as unknown as { connection: NodeJS.EventEmitter }).connection.on('warn', (w: Error) => warnings.push(w.message));
});

after(async () => {
  await conn.end();
  await sim.close();
  console.error = originalError;
  assert.deepEqual(warnings.filter((w) => /out of order/.test(w)), [], 'no packets out of order');
});

test('the endpoint says where it is and what it is', async () => {
  assert.equal(sim.sql!.url, `mysql://root@127.0.0.1:${sim.sql!.port}`);
  const [rows] = await conn.query('SELECT @@version AS v, @@version_comment AS c, DATABASE() AS d');
  const [row] = rows as Array<{ v: string; c: string; d: string }>;
  assert.match(row!.v, /^8\.4\.3-cluster$/, 'a SQL node of the simulated cluster version');
  assert.equal(row!.d, 'ndbinfo');
  await conn.query('SET NAMES utf8mb4');
  await conn.query('set autocommit=1');
});

test('SELECT * of every ndbinfo table gives the schema columns, in order, with numbers as numbers', async () => {
  for (const table of NDBINFO_TABLES) {
    const [rows, fields] = (await conn.query(`SELECT * FROM ndbinfo.${table.name}`)) as [Array<Record<string, unknown>>, FieldPacket[]];
    assert.deepEqual(fields.map((f) => f.name), table.columns.map((c) => c.name), table.name);
    fields.forEach((f, i) => {
      const kind = table.columns[i]!.kind;
      assert.equal(f.type, kind === 'int' ? 3 : kind === 'bigint' ? 8 : 253, `${table.name}.${f.name} wire type`);
    });
    if (table.name === 'restart_info') continue; // no node has restarted yet
    assert.ok(rows.length > 0, `${table.name} has rows`);
    for (const row of rows) {
      for (const c of table.columns) {
        const v = row[c.name];
        if (c.kind === 'string') assert.equal(typeof v, 'string', `${table.name}.${c.name}`);
        else assert.ok(typeof v === 'number' && Number.isInteger(v) && v >= 0, `${table.name}.${c.name} = ${String(v)}`);
      }
      assert.ok([2, 3, 4, 5].includes(row['node_id'] as number), `${table.name}: rows of the data nodes (2..5)`);
    }
  }
});

test('ndb_top query: every thread of node 3, with its name, and percentages that add up', async () => {
  const [one] = (await conn.query(NDB_TOP('cs.node_id=3 AND '))) as [Array<Record<string, number | string>>, unknown];
  // The simulator's ThreadConfig: main,rep,recv,ldm={count=4},tc={count=4}.
  assert.deepEqual(one.map((r) => r['thread_name']), ['main', 'rep', 'ldm', 'ldm', 'ldm', 'ldm', 'tc', 'tc', 'tc', 'tc', 'recv']);
  for (const r of one) {
    assert.equal((r['OS_user'] as number) + (r['OS_system'] as number) + (r['OS_idle'] as number), 100);
    assert.equal(r['elapsed_time'], 1_000_000);
  }
  const [all] = (await conn.query(NDB_TOP(''))) as [unknown[], unknown];
  assert.equal(all.length, 4 * 11);
});

test('SHOW TABLES, SHOW DATABASES, information_schema, USE', async () => {
  const [tables] = (await conn.query('SHOW TABLES FROM ndbinfo')) as [Array<{ Tables_in_ndbinfo: string }>, unknown];
  assert.deepEqual(tables.map((t) => t.Tables_in_ndbinfo), NDBINFO_TABLES.map((t) => t.name).sort());
  const [names] = (await conn.query("SELECT table_name AS n FROM information_schema.tables WHERE table_schema='ndbinfo' ORDER BY 1")) as [Array<{ n: string }>, unknown];
  assert.deepEqual(names.map((t) => t.n), NDBINFO_TABLES.map((t) => t.name).sort());
  const [dbs] = (await conn.query('SHOW DATABASES')) as [Array<{ Database: string }>, unknown];
  assert.deepEqual(dbs.map((d) => d.Database), ['information_schema', 'ndbinfo']);
  await conn.query('USE information_schema');
  await conn.query('USE ndbinfo');
  const [cols] = (await conn.query('DESCRIBE cpustat')) as [Array<{ Field: string }>, unknown];
  assert.equal(cols.length, NDBINFO_TABLES.find((t) => t.name === 'cpustat')!.columns.length);
});

test('errors carry MySQL codes and SQLSTATEs', async () => {
  const fails = async (sql: string, errno: number, sqlState: string, message?: string): Promise<void> => {
    await assert.rejects(conn.query(sql), (err: { errno: number; sqlState: string; message: string }) => {
      assert.equal(err.errno, errno, sql);
      assert.equal(err.sqlState, sqlState, sql);
      if (message) assert.equal(err.message, message);
      return true;
    });
  };
  await fails('SELECT * FROM ndbinfo.x', 1146, '42S02', "Table 'ndbinfo.x' doesn't exist");
  await fails('SELECT * FROM nosuch', 1146, '42S02', "Table 'ndbinfo.nosuch' doesn't exist");
  await fails('SELEC 1', 1064, '42000');
  await fails('SELECT 1; SELECT 2', 1064, '42000');
  await fails('USE nosuchdb', 1049, '42000', "Unknown database 'nosuchdb'");
  await fails('SELECT nosuchcolumn FROM cpustat', 1054, '42S22');
  await fails('DELETE FROM cpustat', 1036, 'HY000', "Table 'cpustat' is read only");
  await fails('SELECT @@nosuchvar', 1193, 'HY000');
  await fails('PRAGMA query_only = OFF', 1064, '42000');
  // The session is still usable after errors, and nothing was deleted.
  const [rows] = (await conn.query('SELECT COUNT(*) AS n FROM cpustat')) as [Array<{ n: number }>, unknown];
  assert.equal(rows[0]!.n, 44);
});

test('a wrong password or user is refused with 1045 and MySQL text; a password set with sqlPassword is checked', async () => {
  const locked = await startSqlSimulator({ dataNodes: 2, sql: { port: 0, user: 'monitor', password: 's3cret' } });
  try {
    const port = locked.sql!.port;
    await assert.rejects(mysql.createConnection({ host: '127.0.0.1', port, user: 'monitor', password: 'wrong' }), (err: { errno: number; sqlState: string; message: string }) => {
      assert.equal(err.errno, 1045);
      assert.equal(err.sqlState, '28000');
      assert.equal(err.message, "Access denied for user 'monitor'@'127.0.0.1' (using password: YES)");
      return true;
    });
    await assert.rejects(mysql.createConnection({ host: '127.0.0.1', port, user: 'root' }), { errno: 1045, message: "Access denied for user 'root'@'127.0.0.1' (using password: NO)" });
    await assert.rejects(mysql.createConnection({ host: '127.0.0.1', port, user: 'monitor', password: 's3cret', database: 'nosuch' }), { errno: 1049 });
    const ok = await mysql.createConnection({ host: '127.0.0.1', port, user: 'monitor', password: 's3cret', database: 'ndbinfo' });
    const [rows] = (await ok.query('SELECT COUNT(*) AS n FROM threads')) as [Array<{ n: number }>, unknown];
    assert.equal(rows[0]!.n, 22);
    await ok.end();
  } finally {
    await locked.close();
  }
});
