import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SPEC_REPLIES } from '../../test/fixtures/spec-transcripts.js';
import { CommandFailedError, type MgmError } from '../../errors.js';
import type { ClusterEvent } from '../../types.js';
import { EventStream } from '../event-stream.js';
import { ScriptedServer } from './scripted-server.js';

const hostsOf = (...servers: ScriptedServer[]) => servers.map((s) => ({ host: '127.0.0.1', port: s.port, bindAddress: null }));

function collect(stream: EventStream, count: number, ms = 10_000): Promise<ClusterEvent[]> {
  const got: ClusterEvent[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${got.length} of ${count} events`)), ms);
    stream.events.on('event', (e) => {
      got.push(e);
      if (got.length === count) {
        clearTimeout(timer);
        resolve(got);
      }
    });
  });
}

test('listen event: the request has parsable and the monitor filter; records arrive typed and stamped', async (t) => {
  // The spec's stream excerpt: reply, pings and records all in one write, as the server may send them.
  const server = await ScriptedServer.start(() => SPEC_REPLIES.eventStream);
  const stream = new EventStream({ hosts: hostsOf(server) });
  t.after(async () => {
    stream.close();
    await server.close();
  });
  const events = collect(stream, 5);
  const before = Date.now();
  await stream.start();
  assert.equal(
    server.requests[0]?.raw,
    'listen event\nparsable: 1\nfilter:"STARTUP=15 NODERESTART=15 CONNECTION=8 STATISTICS=8 CHECKPOINT=7 BACKUP=15 ERROR=15 INFO=7 SCHEMA=8"\n\n',
  );
  const got = await events;
  assert.deepEqual(got.map((e) => e.name), ['TransReportCounters', 'OperationReportCounters', 'Disconnected', 'NodeFailCompleted', 'StartPhaseCompleted']);
  assert.ok(got.every((e) => e.receivedAt >= before && e.receivedAt <= Date.now()));
  assert.deepEqual(got[4]?.fields, { phase: 1, starttype: 2 });
});

test('a refused filter is a permanent error, not a retry loop', async (t) => {
  const server = await ScriptedServer.start(() => SPEC_REPLIES.listenEventUnknownCategory);
  const stream = new EventStream({ hosts: hostsOf(server), filter: { DEBUG: 3 } });
  t.after(async () => {
    stream.close();
    await server.close();
  });
  await assert.rejects(stream.start(), (e: unknown) => e instanceof CommandFailedError && /Unknown category/.test(e.result));
  assert.equal(stream.state.status, 'closed');
});

test('malformed records are reported as warnings and the stream goes on', async (t) => {
  const bad = 'log event reply\ntype=35\ntime=0\nsource_nodeid=2\ntrans_count=x\n\nlog event reply\ntype=0\ntime=0\nsource_nodeid=1\nnode=3\n\n';
  const server = await ScriptedServer.start(() => `${SPEC_REPLIES.listenEventOk}${bad}`);
  const stream = new EventStream({ hosts: hostsOf(server) });
  const warnings: MgmError[] = [];
  stream.events.on('warning', (w) => warnings.push(w));
  t.after(async () => {
    stream.close();
    await server.close();
  });
  const events = collect(stream, 1);
  await stream.start();
  assert.equal((await events)[0]?.name, 'Connected');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]?.message ?? '', /trans_count/);
});

test('a silent server (no PING) is declared dead and the stream fails over to the next one', async (t) => {
  const silent = await ScriptedServer.start(() => SPEC_REPLIES.listenEventOk);
  const lively = await ScriptedServer.start((_req, socket) => {
    const timer = setInterval(() => socket.writable && socket.write('<PING>\nlog event reply\ntype=0\ntime=0\nsource_nodeid=2\nnode=3\n\n'), 50);
    socket.on('close', () => clearInterval(timer));
    return SPEC_REPLIES.listenEventOk;
  });
  const stream = new EventStream({ hosts: hostsOf(silent, lively), livenessTimeoutMs: 300, backoff: { baseMs: 10, capMs: 50 } });
  t.after(async () => {
    stream.close();
    await silent.close();
    await lively.close();
  });
  await stream.start();
  assert.equal(stream.state.port, silent.port);
  const got = await collect(stream, 1);
  assert.equal(got[0]?.sourceNodeId, 2);
  assert.equal(stream.state.port, lively.port);
  assert.equal(stream.state.failovers, 1);
});

// Issue 12: the event stream must follow the command session back to a management server that answers, rather
// than wait out its backoff.
test('a stream waiting out its backoff reconnects at once when told which server is up', { timeout: 60_000 }, async (t) => {
  const server = await ScriptedServer.start(() => SPEC_REPLIES.listenEventOk);
  // Pings keep the stream alive; a minute's backoff would outlast the test without the hint.
  const pings = setInterval(() => server.listeners.forEach((s) => s.write('<PING>\n')), 200);
  const stream = new EventStream({ hosts: hostsOf(server), backoff: { baseMs: 60_000, capMs: 60_000, random: () => 0.999 } });
  t.after(async () => {
    clearInterval(pings);
    stream.close();
    await server.close();
  });
  await stream.start();
  const waiting = new Promise<void>((resolve) => stream.events.on('state', (s) => s.status === 'reconnecting' && resolve()));
  server.dropAll();
  await waiting;
  const back = new Promise<void>((resolve) => stream.events.on('state', (s) => s.status === 'connected' && resolve()));
  stream.follow(0);
  await back;
  assert.equal(server.requests.filter((r) => r.command === 'listen event').length, 2);
});

// Issue 12: with follow wired to the command link, statistics were suspected of arriving twice. A server that writes
// each record, numbered, to every listener it has: a second session (or an old one still read) would show as a
// number seen twice or as a second open socket.
test('follow on a live stream opens no second session; after a loss it dials once and every record arrives once', { timeout: 60_000 }, async (t) => {
  const server = await ScriptedServer.start(() => SPEC_REPLIES.listenEventOk);
  let seq = 0;
  const broadcast = setInterval(() => {
    seq += 1;
    for (const s of server.listeners) s.write(`<PING>\nlog event reply\ntype=0\ntime=0\nsource_nodeid=1\nnode=${seq}\n\n`);
  }, 20);
  const stream = new EventStream({ hosts: hostsOf(server), backoff: { baseMs: 60_000, capMs: 60_000, random: () => 0.999 } });
  t.after(async () => {
    clearInterval(broadcast);
    stream.close();
    await server.close();
  });
  const seen: number[] = [];
  stream.events.on('event', (e) => seen.push(e.fields.node ?? -1));
  const records = async (more: number): Promise<void> => {
    const until = seen.length + more;
    while (seen.length < until) await new Promise((r) => setTimeout(r, 20));
  };
  await stream.start();
  await records(5);
  for (let i = 0; i < 5; i += 1) stream.follow(0);
  await records(10);
  assert.equal(server.requests.filter((r) => r.command === 'listen event').length, 1, 'follow on a live stream dials nothing');
  const waiting = new Promise<void>((resolve) => stream.events.on('state', (s) => s.status === 'reconnecting' && resolve()));
  server.dropAll();
  await waiting;
  const back = new Promise<void>((resolve) => stream.events.on('state', (s) => s.status === 'connected' && resolve()));
  stream.follow(0);
  stream.follow(0);
  await back;
  stream.follow(0);
  await records(20);
  assert.equal(server.requests.filter((r) => r.command === 'listen event').length, 2, 'one new session after the loss');
  assert.equal(server.sockets.size, 1);
  const repeated = seen.filter((n, i) => seen.indexOf(n) !== i);
  assert.deepEqual(repeated, [], 'no record arrives twice');
  assert.ok(seen.every((n, i) => i === 0 || n > (seen[i - 1] ?? 0)), 'records in the order sent');
});

// Issue 12: a hint that comes while the stream is still dialling a server that accepts and never answers must not
// be lost: once that attempt fails, the stream dials the server named instead of waiting out its backoff.
test('follow during a dial that then fails: the stream goes to the named server at once, not after its backoff', { timeout: 30_000 }, async (t) => {
  let listens = 0;
  const hanging = await ScriptedServer.start(() => (++listens === 1 ? SPEC_REPLIES.listenEventOk : { stall: true }));
  const good = await ScriptedServer.start(() => SPEC_REPLIES.listenEventOk);
  const pings = setInterval(() => [...hanging.listeners, ...good.listeners].forEach((s) => s.write('<PING>\n')), 200);
  const stream = new EventStream({ hosts: hostsOf(hanging, good), requestTimeoutMs: 500, backoff: { baseMs: 60_000, capMs: 60_000, random: () => 0.999 } });
  t.after(async () => {
    clearInterval(pings);
    stream.close();
    await Promise.all([hanging.close(), good.close()]);
  });
  await stream.start();
  const waiting = new Promise<void>((resolve) => stream.events.on('state', (s) => s.status === 'reconnecting' && resolve()));
  hanging.dropAll();
  await waiting;
  // First told the hanging server is up (it accepts): the stream dials it and its listen goes unanswered.
  stream.follow(0);
  while (listens < 2) await new Promise((r) => setTimeout(r, 10));
  const back = new Promise<void>((resolve) => stream.events.on('state', (s) => s.status === 'connected' && resolve()));
  stream.follow(1);
  await back;
  assert.equal(stream.state.port, good.port);
  assert.equal(good.requests.filter((r) => r.command === 'listen event').length, 1);
});

// Under load the process itself may not run for longer than the liveness timeout (a 144-node status parsed, the CPU
// shared with a dozen others): the PINGs then wait unread in the socket, and the stream must not be declared dead.
test("a stall of ndbtop's own event loop is not silence of the server", async (t) => {
  const server = await ScriptedServer.start((_req, socket) => {
    const timer = setInterval(() => socket.writable && socket.write('<PING>\n'), 50);
    socket.on('close', () => clearInterval(timer));
    return SPEC_REPLIES.listenEventOk;
  });
  const stream = new EventStream({ hosts: hostsOf(server), livenessTimeoutMs: 300, backoff: { baseMs: 10, capMs: 50 } });
  t.after(async () => {
    stream.close();
    await server.close();
  });
  await stream.start();
  const states: string[] = [];
  stream.events.on('state', (s) => states.push(s.status));
  await new Promise((resolve) => setTimeout(resolve, 200));
  for (const end = Date.now() + 1000; Date.now() < end; );
  await new Promise((resolve) => setTimeout(resolve, 400));
  assert.deepEqual(states, [], 'the stream stayed up');
  assert.equal(stream.state.failovers, 0);
});

test('readEveryMs: records sent one at a time are read in batches, at least that far apart, each once and in order', async (t) => {
  const server = await ScriptedServer.start(() => SPEC_REPLIES.listenEventOk);
  let seq = 0;
  const sentAt = new Map<number, number>();
  const broadcast = setInterval(() => {
    seq += 1;
    sentAt.set(seq, Date.now());
    for (const s of server.listeners) s.write(`log event reply\ntype=0\ntime=0\nsource_nodeid=1\nnode=${seq}\n\n`);
  }, 5);
  const stream = new EventStream({ hosts: hostsOf(server), readEveryMs: 150 });
  t.after(async () => {
    clearInterval(broadcast);
    stream.close();
    await server.close();
  });
  const events = collect(stream, 120, 20_000);
  await stream.start();
  const got = await events;
  const nodes = got.map((e) => e.fields.node ?? -1);
  assert.ok(nodes.every((n, i) => i === 0 || n === (nodes[i - 1] ?? 0) + 1), `every record once, in order: ${nodes.join(' ')}`);
  // A read's records are stamped as each is parsed (a batch can straddle a millisecond); reads one by one would be
  // ~5 ms apart.
  const reads = got.map((e) => e.receivedAt).filter((at, i, all) => i === 0 || at - (all[i - 1] ?? 0) > 20);
  assert.ok(reads.length >= 2 && reads.length < got.length / 5, `${reads.length} reads for ${got.length} records`);
  const gaps = reads.slice(1).map((at, i) => at - (reads[i] ?? 0));
  assert.ok(gaps.every((g) => g >= 140), `reads apart by ${gaps.join(', ')} ms`);
  // A record waits for the end of the pause it arrived in, not of the one after (half of 150 ms on average).
  const late = got.map((e) => e.receivedAt - (sentAt.get(e.fields.node ?? 0) ?? 0)).sort((a, b) => a - b);
  assert.ok((late[late.length >> 1] ?? 0) < 150, `median ${late[late.length >> 1]} ms late`);
});
