import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listen, nextRecord } from './event-stream.js';
import { withSim, type RawConnection } from './raw-socket.js';

const STREAM = /^(?:<PING>\n|log event reply\n(?:[a-z_0-9]+=[^\n]*\n)+\n)*$/;

const reportEvent = async (conn: RawConnection, words: readonly number[]): Promise<void> => {
  assert.equal(await conn.request(`report event\nlength: ${words.length}\ndata: ${words.join(' ')}\n\n`), 'report event reply\nresult: ok\n\n');
};
const head = (source: number, type: number): number => source * 65536 + type;

test('listen event filter errors (spec §6.1) leave a normal command session', async () => {
  await withSim({}, async (_sim, open) => {
    const c = await open();
    const err = (msg: string): string => `listen event\nresult: -1\nmsg: ${msg}\n\n`;
    assert.equal(await c.request('listen event\nfilter: STATISTICS=8, STARTUP=15\n\n'), err('Invalid filter specification: >STATISTICS=8, STARTUP=15< >< 1'));
    assert.equal(await c.request('listen event\nfilter: STARTUP\n\n'), err('Invalid filter specification: >STARTUP< >STARTUP< 1'));
    assert.equal(await c.request('listen event\nfilter: STARTUP=1=2\n\n'), err('Invalid filter specification: >STARTUP=1=2< >STARTUP=1=2< 3'));
    assert.equal(await c.request('listen event\nfilter: warning=7\n\n'), err('Unknown category: >WARNING<'));
    assert.equal(await c.request('listen event\nfilter: STATISTIC=8\n\n'), err('Unknown category: >STATISTIC<'));
    assert.equal(await c.request('listen event\nfilter: 249=8\n\n'), err('Unknown category: >249<'));
    assert.equal(await c.request('listen event\nfilter: STARTUP=16\n\n'), err('Invalid level: >16<'));
    assert.equal(await c.request('listen event\nfilter: ""\n\n'), err('Empty filter specification'));
    assert.equal(await c.request('check connection\n\n'), 'check connection reply\nresult: Ok\n\n');
    // Numbers, lower case, `:` and commas are fine.
    await listen(c, '257=7,startup:15 255=8');
  });
});

test('report event round trip (spec §4.17): data= words with a trailing space each', async () => {
  await withSim({}, async (_sim, open) => {
    const l = await open();
    await listen(l, 'INFO=7 STARTUP=15 STATISTICS=5 BACKUP=7 NODERESTART=7');
    const c = await open();
    assert.equal(await c.request('report event\nlength: 3\ndata: 65585 1819043144 111\n\n'), 'report event reply\nresult: ok\n\n');
    assert.equal(await nextRecord(l), 'log event reply\ntype=49\ntime=0\nsource_nodeid=1\ndata=1819043144 111 \n\n');
    await reportEvent(c, [head(3, 13), 4, 2]);
    assert.equal(await nextRecord(l), 'log event reply\ntype=13\ntime=0\nsource_nodeid=3\nphase=4\nstarttype=2\n\n');
    // Fields print as signed %d of their word; missing words read as 0.
    await reportEvent(c, [head(2, 50), 4294967295, 32768, 3120]);
    assert.equal(await nextRecord(l), 'log event reply\ntype=50\ntime=0\nsource_nodeid=2\ngth=-1\npage_size_bytes=32768\npages_used=3120\npages_total=0\nblock=0\n\n');
    await reportEvent(c, [head(2, 56), 2, 12, 100, 112, 3000000000, 5, 6, 7, 0, 0, 1]);
    assert.equal(
      await nextRecord(l),
      'log event reply\ntype=56\ntime=0\nsource_nodeid=2\nstarting_node=2\nbackup_id=12\nstart_gci=100\nstop_gci=112\nn_bytes=-1294967296\nn_records=5\nn_log_bytes=6\nn_log_records=7\nn_bytes_hi=1\nn_records_hi=0\nn_log_bytes_hi=0\nn_log_records_hi=0\n\n',
    );
    await reportEvent(c, [head(2, 22)]);
    assert.equal(await nextRecord(l), 'log event reply\ntype=22\ntime=0\nsource_nodeid=2\ndata=\n\n');
  });
});

test('each listener gets only events with threshold <= its level', async () => {
  await withSim({}, async (_sim, open) => {
    const low = await open();
    await listen(low, 'STARTUP=3');
    const high = await open();
    await listen(high, 'STARTUP=15');
    const c = await open();
    await reportEvent(c, [head(2, 13), 1, 0]); // StartPhaseCompleted, threshold 4
    await reportEvent(c, [head(2, 8), 99]); // LCPStoppedInCalcKeepGci, threshold 0: reaches everyone
    await reportEvent(c, [head(2, 10), 525315]); // NDBStartStarted, threshold 1
    assert.match(await nextRecord(high), /^log event reply\ntype=13\n/);
    assert.match(await nextRecord(high), /^log event reply\ntype=8\n.*\ndata=99\n\n$/s);
    assert.match(await nextRecord(high), /^log event reply\ntype=10\n/);
    assert.match(await nextRecord(low), /^log event reply\ntype=8\n/);
    assert.match(await nextRecord(low), /^log event reply\ntype=10\n/);
  });
});

test('the event socket is one-way, PINGs come only between records, also with bytewise writes', async () => {
  for (const writeMode of ['whole', 'bytewise'] as const) {
    await withSim({ writeMode, scenario: 'steady', speed: 20 }, async (_sim, open) => {
      const l = await open();
      await listen(l, 'STATISTICS=8');
      l.send('get version\n\n');
      // Cut after the last complete record once enough has arrived; the rest may still be on its way.
      const stream = await l.read((b) => {
        const pings = b.split('<PING>\n').length - 1;
        const records = b.split('log event reply\n').length - 1;
        return pings >= 3 && records >= 10 ? b.lastIndexOf('\n\n') + 2 : null;
      });
      assert.match(stream, STREAM, writeMode);
      assert.doesNotMatch(stream, /version/);
      assert.match(stream, /type=35\n/);
      assert.match(stream, /type=36\n/);
      if (writeMode === 'bytewise') assert.ok(l.chunks > 100, `${l.chunks} chunks`);
    });
  }
});

test('a listener that goes away is dropped and the server carries on', async () => {
  await withSim({ scenario: 'steady', speed: 50 }, async (_sim, open) => {
    const l = await open();
    await listen(l, 'STATISTICS=8');
    await nextRecord(l);
    l.close();
    const c = await open();
    const other = await open();
    await listen(other, 'STATISTICS=8');
    assert.match(await nextRecord(other), /^log event reply\ntype=3[56]\n/);
    assert.equal(await c.request('check connection\n\n'), 'check connection reply\nresult: Ok\n\n');
  });
});

test('a new listener makes the server ping the listeners it already has (spec §6.2)', async () => {
  await withSim({}, async (_sim, open) => {
    const a = await open();
    await listen(a, 'INFO=7');
    const c = await open();
    const marker = (n: number): Promise<void> => reportEvent(c, [head(1, 49), n]);
    // Records mark the places in a's stream where each new listener subscribed: a PING stands at every one,
    // where a periodic one (every 500 ms) would only land by chance.
    await marker(1);
    for (let n = 2; n <= 4; n++) {
      await listen(await open(), 'STARTUP=1');
      await marker(n);
    }
    const stream = await a.read((b) => (b.includes('data=4 \n\n') ? b.indexOf('data=4 \n\n') + 'data=4 \n\n'.length : null));
    const between = stream.split(/log event reply\ntype=49\ntime=0\nsource_nodeid=1\ndata=\d \n\n/).slice(1, -1);
    assert.equal(between.length, 3, stream);
    for (const gap of between) assert.match(gap, /^(?:<PING>\n)+$/, JSON.stringify(stream));
  });
});

test('listen event: any non-zero parsable selects the parsable format (the server tests `if (parsable)`)', async () => {
  await withSim({}, async (_sim, open) => {
    const l = await open();
    assert.equal(await l.request('listen event\nfilter: INFO=7\nparsable: 2\n\n'), 'listen event\nresult: 0\n\n');
    const c = await open();
    await reportEvent(c, [head(1, 49), 7]);
    assert.equal(await nextRecord(l), 'log event reply\ntype=49\ntime=0\nsource_nodeid=1\ndata=7 \n\n');
  });
});

test('a listener that stops reading is dropped about a second after its writes stop going out (spec §6.2)', async () => {
  await withSim({}, async (sim, open) => {
    const l = await open();
    await listen(l, 'INFO=7');
    l.socket.pause();
    // Batches of ~3.5 MB of InfoEvents 1.5 s apart: the first fills what loopback buffers hold for a reader that
    // does not read (about 4 MB with Linux's default send buffer limit, tcp_wmem; a CI machine once took two
    // batches whole), a later one waits in the server. None comes near the size at which a listener is dropped
    // whatever the time (16 MB waiting), so only the write timeout can end this listener.
    const words = Array.from({ length: 24 }, (_, i) => 4_000_000_000 + i);
    const batch = 11_000;
    const batches = 3;
    const sent = batches * batch;
    for (let b = 0; b < batches; b++) {
      if (b > 0) await new Promise((r) => setTimeout(r, 1500));
      for (let n = 0; n < batch; n++) sim.model.emit({ type: 49, source: 1, body: words, mgmd: 1 });
    }
    await new Promise((r) => setTimeout(r, 3000));
    l.socket.resume();
    // What the kernel held still arrives, then the server's close; a listener kept open would read it all.
    await l.waitClosed();
    const records = l.pending.split('log event reply\n').length - 1;
    assert.ok(records > 0 && records < sent, `${records} records before the close`);
  });
});
