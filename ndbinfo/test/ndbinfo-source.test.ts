import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SourceEvent } from '../client/ndbinfo-source.js';
import type { Sample } from '../client/sample.js';
import { parseSqlUrl } from '../client/sql-url.js';
import type { TransporterRow } from '../client/rows.js';
import { fillNdbinfo, LEFT_OUT, SQL_PASSWORD, SQL_USER } from './fixture-cluster.js';
import { freePort } from '../../native-mgm/test/free-port.js';
import { MariaDbServer } from './mariadb-server.js';
import { isSample, isState, recordingSource, waitFor, waitForCount } from './source-helpers.js';

const samplesOf = (events: readonly SourceEvent[], reading: string, from = 0): Sample[] =>
  events.slice(from).flatMap((e) => (e.type === 'sample' && e.sample.reading === reading ? [e.sample] : []));

describe('NdbinfoSource against a real MariaDB server', () => {
  let server: MariaDbServer;
  const url = () => parseSqlUrl(`mysql://${SQL_USER}@127.0.0.1:${server.port}`);
  before(async () => {
    server = await MariaDbServer.create();
    fillNdbinfo(server);
  });
  after(() => server?.dispose());

  it('comes up naming the missing tables, reads each table on its interval with its time, and turns counters into rates', async () => {
    const { source, events } = recordingSource({ addresses: [url()], password: SQL_PASSWORD });
    source.start();
    try {
      const up = events[await waitFor(events, isState('up'))];
      assert.ok(up?.type === 'state' && up.state.kind === 'up');
      assert.deepEqual([...up.state.missing].sort(), [...LEFT_OUT].sort());
      assert.equal(up.state.failedOverFrom, null);
      await waitFor(events, isSample('transporters'));
      server.sql('UPDATE ndbinfo.transporters SET bytes_sent = bytes_sent + 1000000 WHERE node_id = 1;');
      const from = events.length;
      await waitFor(events, (e) => isSample('transporters')(e) && (e as { sample: Sample<'transporters'> }).sample.rows[0]?.bytesSent === 5_001_000_000, from);
      const trps = samplesOf(events, 'transporters');
      const i = trps.findIndex((s) => (s.rows[0] as TransporterRow).bytesSent === 5_001_000_000);
      const [before, after] = [trps[i - 1], trps[i]] as [Sample<'transporters'>, Sample<'transporters'>];
      const rate = after.rows[0]?.perSec.bytesSent;
      assert.ok(rate !== null && rate !== undefined);
      assert.ok(Math.abs(rate - 1e9 / (after.at - before.at)) < 1e-6, `rate ${rate} is the growth over the two readings' times`);
      assert.equal(after.rows[1]?.perSec.bytesSent, 0, 'an unchanged counter has rate 0');

      await waitForCount(events, isSample('cpu'), 5);
      const cpu = samplesOf(events, 'cpu');
      for (let k = 1; k < cpu.length; k += 1) assert.ok((cpu[k]?.at ?? 0) > (cpu[k - 1]?.at ?? 0));
      const load = source.selfLoad();
      assert.equal(load.maxInFlight, 1, 'never two queries at once on the connection');
      assert.ok(load.queries >= cpu.length);
      assert.ok((load.readings.cpu?.lastMs ?? -1) >= 0);
    } finally {
      await source.close();
    }
    assert.ok(isState('closed')(events.at(-1) as SourceEvent));
  });

  it('a counter that goes backwards (a data node restart) gives no rate, never a negative one', async () => {
    const { source, events } = recordingSource({ addresses: [url()], password: SQL_PASSWORD });
    source.start();
    try {
      await waitFor(events, isSample('transporters'));
      server.sql('UPDATE ndbinfo.transporters SET bytes_sent = 10 WHERE node_id = 1;');
      const from = events.length;
      const i = await waitFor(events, (e) => e.type === 'sample' && e.sample.reading === 'transporters' && (e.sample.rows[0] as TransporterRow).bytesSent === 10, from);
      const s = events[i] as { sample: Sample<'transporters'> };
      assert.equal(s.sample.rows[0]?.perSec.bytesSent, null);
    } finally {
      await source.close();
      server.sql('UPDATE ndbinfo.transporters SET bytes_sent = 5000000000 WHERE node_id = 1;');
    }
  });

  it('a malformed value is a problem naming table and column; the other readings go on', async () => {
    server.sql("ALTER TABLE ndbinfo.resources MODIFY `used` VARCHAR(20) NOT NULL; UPDATE ndbinfo.resources SET `used` = 'lots';");
    const { source, events } = recordingSource({ addresses: [url()], password: SQL_PASSWORD });
    source.start();
    try {
      const i = await waitFor(events, (e) => e.type === 'problem');
      const p = events[i];
      assert.ok(p?.type === 'problem');
      assert.equal(p.reading, 'resources');
      assert.equal(p.code, 'MALFORMED');
      assert.match(p.message, /ndbinfo\.resources\.used: expected an unsigned number, got "lots"/);
      await waitForCount(events, isSample('cpu'), 20, i);
      assert.equal(events.filter((e) => e.type === 'state' && e.state.kind === 'lost').length, 0, 'the connection stayed up');
      const problems = events.filter((e) => e.type === 'problem').length;
      const cpuReads = samplesOf(events, 'cpu').length;
      assert.ok(problems < cpuReads / 2, `a failing reading backs off (${problems} problems, ${cpuReads} cpu reads)`);
    } finally {
      await source.close();
      server.sql("UPDATE ndbinfo.resources SET `used` = '32768'; ALTER TABLE ndbinfo.resources MODIFY `used` INT UNSIGNED NOT NULL;");
    }
  });

  it('survives the server being stopped and started again', async () => {
    const { source, events } = recordingSource({ addresses: [url()], password: SQL_PASSWORD });
    source.start();
    try {
      await waitFor(events, isSample('cpu'));
      await server.stop();
      const lost = await waitFor(events, isState('lost'));
      const l = events[lost];
      assert.ok(l?.type === 'state' && l.state.kind === 'lost');
      assert.equal(l.state.sqlNode, url().display);
      assert.doesNotMatch(JSON.stringify(events), new RegExp(SQL_PASSWORD));
      await server.start();
      const up = await waitFor(events, isState('up'), lost);
      await waitFor(events, isSample('cpu'), up);
    } finally {
      await source.close();
    }
  });

  it('fails over to the second SQL node when the first is down, and says so', async () => {
    const down = parseSqlUrl(`mysql://${SQL_USER}@127.0.0.1:${await freePort()}`);
    const { source, events } = recordingSource({ addresses: [down, url()], password: SQL_PASSWORD });
    source.start();
    try {
      const i = await waitFor(events, isState('up'));
      const up = events[i];
      assert.ok(up?.type === 'state' && up.state.kind === 'up');
      assert.equal(up.state.sqlNode, url().display);
      const tried = events.slice(0, i).find((e) => e.type === 'state' && e.state.kind === 'connecting' && e.state.lastError !== null);
      assert.ok(tried?.type === 'state' && tried.state.kind === 'connecting');
      assert.match(tried.state.lastError ?? '', /connection refused/);
      await waitFor(events, isSample('cpu'), i);
    } finally {
      await source.close();
    }
  });
});
