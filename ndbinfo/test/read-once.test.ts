import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NODE_RECOVERY_STATUS, RESTART_PHASE_COLUMNS } from '../schema/tables.js';
import { NdbinfoError } from '../client/errors.js';
import { readOnce } from '../client/read-once.js';
import { parseSqlUrl } from '../client/sql-url.js';
import { FIXTURE_ROWS, fillNdbinfo, LEFT_OUT, SQL_PASSWORD, SQL_USER } from './fixture-cluster.js';
import { createTable } from './ndbinfo-fixture.js';
import { ndbinfoTable } from '../schema/tables.js';
import { MariaDbServer } from './mariadb-server.js';

const OPTS = { connectTimeoutMs: 5000, queryTimeoutMs: 5000 };

describe('readOnce against a real MariaDB server holding an ndbinfo schema', () => {
  let server: MariaDbServer;
  const url = (user = SQL_USER) => parseSqlUrl(`mysql://${user}@127.0.0.1:${server.port}`);
  before(async () => {
    server = await MariaDbServer.create();
    fillNdbinfo(server);
  });
  after(() => server?.dispose());

  it('reports exactly the values the tables hold, and names the missing tables', async () => {
    const snap = await readOnce([url()], SQL_PASSWORD, OPTS);
    assert.equal(snap.sqlNode, `mysql://${SQL_USER}@127.0.0.1:${server.port}`);
    assert.match(snap.serverVersion, /MariaDB/);
    assert.deepEqual([...snap.missing].sort(), [...LEFT_OUT].sort());
    assert.equal(snap.samples.logspaces?.rows.length, 3);
    assert.equal(snap.samples.transporterDetails, undefined);

    const cpu = snap.samples.cpu?.rows ?? [];
    assert.deepEqual(
      cpu.map((r) => [r.nodeId, r.thrNo, r.threadName, r.osUser, r.osSystem, r.osIdle, r.threadExec, r.threadSleeping, r.threadSpinning, r.threadSend, r.threadBufferFull, r.elapsedTime]),
      FIXTURE_ROWS.cpustat?.map((r, i) => [r.node_id, r.thr_no, FIXTURE_ROWS.threads?.[i]?.thread_name, r.OS_user, r.OS_system, r.OS_idle, r.thread_exec, r.thread_sleeping, r.thread_spinning, r.thread_send, r.thread_buffer_full, r.elapsed_time]),
    );

    const restarts = snap.samples.restarts?.rows ?? [];
    assert.equal(restarts.length, 2);
    assert.deepEqual(restarts[1], {
      nodeId: 2,
      status: 'Executing redo log',
      statusInt: 14,
      statusName: NODE_RECOVERY_STATUS[14],
      phases: Object.fromEntries(RESTART_PHASE_COLUMNS.map((c, i) => [c, 200 + i])),
      totalSecs: 0,
    });

    const trp = snap.samples.transporters?.rows[0];
    assert.equal(trp?.bytesSent, 5_000_000_000);
    assert.equal(trp?.bytesReceived, 4_000_000_123);
    assert.deepEqual(trp?.perSec, { bytesSent: null, bytesReceived: null, overloadCount: null, slowdownCount: null });
    assert.deepEqual(snap.samples.memory?.rows[0], { nodeId: 1, memoryType: 'Data memory', used: 1_073_741_824, usedPages: 32768, total: 8_589_934_592, totalPages: 262144 });
    assert.equal(snap.samples.diskPageBuffer?.rows[0]?.hitRatioSinceStart, 0.9);
    assert.equal(snap.samples.diskWriteSpeed?.rows[0]?.slowdownsDueToIoLag, 6);
    assert.equal(snap.samples.resources?.rows[0]?.max, 262144);
    assert.deepEqual(snap.samples.hostCpu?.rows[1], { nodeId: 1, cpuNo: 1, cpuOnline: 0, cpuUserspaceTime: 0, cpuIdleTime: 0, cpuSystemTime: 0, cpuInterruptTime: 0, cpuExecVmTime: 0 });
    assert.equal(snap.samples.hostCpu?.rows[0]?.cpuUserspaceTime, 200);
    assert.deepEqual(snap.absentColumns, []);
    for (const s of Object.values(snap.samples)) assert.ok(s.at > 0 && s.durationMs >= 0, `${s.reading} carries its time`);
  });

  it('reads a table an older release has without some columns by the columns it has, and leaves a reading that needs them', async () => {
    // transporter_details without its send-buffer columns, and transporters without encrypted (an 8.0 view).
    const base = ndbinfoTable('transporter_details')!;
    const older = { ...base, columns: base.columns.filter((c) => !c.name.startsWith('sendbuffer_')) };
    server.sql(`${createTable(older)}\nALTER TABLE ndbinfo.transporters DROP COLUMN encrypted;`);
    try {
      const snap = await readOnce([url()], SQL_PASSWORD, OPTS);
      assert.deepEqual([...snap.absentColumns].sort(), ['transporter_details.sendbuffer_alloc_bytes', 'transporter_details.sendbuffer_max_alloc_bytes', 'transporter_details.sendbuffer_max_used_bytes', 'transporter_details.sendbuffer_used_bytes', 'transporters.encrypted']);
      assert.equal(snap.samples.transporterDetails, undefined, 'the send buffers need the columns: not read');
      assert.equal(snap.samples.transporters?.rows[0]?.bytesSent, 5_000_000_000, 'transporters read without encrypted');
    } finally {
      fillNdbinfo(server);
    }
  });

  it('gives the access-denied error for a wrong password, without the password', async () => {
    const err = await readOnce([url()], 'wrong-password', OPTS).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof NdbinfoError);
    assert.equal(err.code, 'ACCESS_DENIED');
    assert.match(err.message, /access denied/);
    assert.doesNotMatch(err.message, /wrong-password/);
  });

  it('says a server without an ndbinfo schema is not an SQL node', async () => {
    const err = await readOnce([url('plain')], SQL_PASSWORD, OPTS).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof NdbinfoError);
    assert.equal(err.code, 'NO_NDBINFO');
    assert.match(err.message, /no ndbinfo schema/);
  });
});
