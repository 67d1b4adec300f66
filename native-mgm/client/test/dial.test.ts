import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Server, Socket, TcpNetConnectOpts } from 'node:net';
import { dialFirstReachable } from '../dial.js';
import type { MgmHost } from '../../connectstring.js';
import { AbortedError, UnreachableError } from '../../errors.js';

interface TestServer {
  port: number;
  /** Connections the server accepted and that are still open on its side. */
  open: Set<Socket>;
  accepted: Socket[];
  close(): Promise<void>;
}

async function listen(host = '127.0.0.1'): Promise<TestServer> {
  const open = new Set<Socket>();
  const accepted: Socket[] = [];
  const server: Server = createServer((socket) => {
    accepted.push(socket);
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    open,
    accepted,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on: connecting to it is refused. */
async function refusedPort(): Promise<number> {
  const server = await listen();
  await server.close();
  return server.port;
}

async function waitFor(what: string, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function at(host: string, port: number, bindAddress: MgmHost['bindAddress'] = null): MgmHost {
  return { host, port, bindAddress };
}

/** Node's own connect, recording every socket dial opens so the test can check that losers were destroyed. */
function recordingConnect(transform: (options: TcpNetConnectOpts) => TcpNetConnectOpts = (o) => o) {
  const opened: Socket[] = [];
  const ports: Array<number | undefined> = [];
  const connect = (options: TcpNetConnectOpts): Socket => {
    const socket = createConnection(transform(options));
    opened.push(socket);
    ports.push(options.port);
    return socket;
  };
  return { opened, ports, connect };
}

/** Names ending in .blackhole never resolve, so the real socket stays "connecting" until dial gives up on it. */
const blackhole = (options: TcpNetConnectOpts): TcpNetConnectOpts =>
  options.host?.endsWith('.blackhole') === true ? { ...options, lookup: () => {} } : options;

/** Dials, then waits for the server's side of the new connection, so the test can see what the server saw. */
async function dialAndAccept(server: TestServer, hosts: MgmHost[]): Promise<{ socket: Socket; peer: Socket }> {
  const before = server.accepted.length;
  const { socket } = await dialFirstReachable(hosts, { connectTimeoutMs: 10_000 });
  await waitFor('the server accepted the connection', () => server.accepted.length > before);
  const peer = server.accepted[before];
  assert.ok(peer !== undefined);
  return { socket, peer };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => assert.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

test('a refused first host is skipped and the second one wins', async () => {
  const server = await listen();
  const refused = await refusedPort();
  const { opened, connect } = recordingConnect();
  const result = await dialFirstReachable([at('127.0.0.1', refused), at('127.0.0.1', server.port)], { connectTimeoutMs: 10_000, connect });
  try {
    assert.deepEqual({ host: result.host, port: result.port, index: result.index }, { host: '127.0.0.1', port: server.port, index: 1 });
    assert.equal(opened.length, 2);
    assert.equal(opened[0]?.destroyed, true);
    assert.equal(result.socket, opened[1]);
    assert.equal(result.socket.destroyed, false);
    assert.equal(result.socket.listenerCount('error'), 0, 'dial leaves no listeners of its own on the winner');
    assert.equal(result.socket.listenerCount('connect'), 0);
    await waitFor('the server accepted the connection', () => server.open.size === 1);
    assert.equal(server.accepted[0]?.remotePort, result.socket.localPort);
  } finally {
    result.socket.destroy();
    await server.close();
  }
});

test('when every host refuses, UnreachableError lists each attempt in order and no socket is left open', async () => {
  const [a, b] = [await refusedPort(), await refusedPort()];
  const { opened, connect } = recordingConnect();
  const signal = new AbortController().signal;
  const error = await rejection(dialFirstReachable([at('127.0.0.1', a), at('localhost', b)], { connectTimeoutMs: 10_000, connect, signal }));
  assert.ok(error instanceof UnreachableError);
  assert.equal(error.code, 'UNREACHABLE');
  assert.deepEqual(error.attempts, [
    { host: '127.0.0.1', port: a, error: 'ECONNREFUSED' },
    { host: 'localhost', port: b, error: 'ECONNREFUSED' },
  ]);
  assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${a} \\(ECONNREFUSED\\), localhost:${b} \\(ECONNREFUSED\\)`));
  assert.ok(opened.every((socket) => socket.destroyed));
  assert.equal(getEventListeners(signal, 'abort').length, 0);
});

test('a host name that does not resolve counts as that host failing', async () => {
  const server = await listen();
  try {
    const result = await dialFirstReachable([at('no-such-host.invalid', 1186), at('127.0.0.1', server.port)], { connectTimeoutMs: 10_000 });
    assert.equal(result.index, 1);
    result.socket.destroy();
    const error = await rejection(dialFirstReachable([at('no-such-host.invalid', 1186)], { connectTimeoutMs: 10_000 }));
    assert.ok(error instanceof UnreachableError);
    assert.match(error.attempts[0]?.error ?? '', /^(ENOTFOUND|EAI_AGAIN|EAI_NONAME)$/);
  } finally {
    await server.close();
  }
});

test('startIndex picks the first host to try and the list wraps around once', async () => {
  const server = await listen();
  const [r1, r2] = [await refusedPort(), await refusedPort()];
  const hosts = [at('127.0.0.1', server.port), at('127.0.0.1', r1), at('127.0.0.1', r2)];
  try {
    const { ports, connect } = recordingConnect();
    const result = await dialFirstReachable(hosts, { connectTimeoutMs: 10_000, startIndex: 1, connect });
    assert.equal(result.index, 0);
    assert.deepEqual(ports, [r1, r2, server.port]);
    result.socket.destroy();

    const refusedOnly = [at('127.0.0.1', r1), at('127.0.0.1', r2), at('localhost', r1)];
    for (const [startIndex, order] of [[2, [2, 0, 1]], [5, [2, 0, 1]], [-1, [2, 0, 1]], [0, [0, 1, 2]]] as const) {
      const error = await rejection(dialFirstReachable(refusedOnly, { connectTimeoutMs: 10_000, startIndex }));
      assert.ok(error instanceof UnreachableError);
      assert.deepEqual(
        error.attempts.map(({ host, port }) => ({ host, port })),
        order.map((i) => ({ host: refusedOnly[i]?.host, port: refusedOnly[i]?.port })),
        `startIndex ${startIndex}`,
      );
    }
  } finally {
    await server.close();
  }
});

// A connect that hangs cannot be produced deterministically on loopback (a full backlog is platform-dependent),
// so these tests inject a name lookup that never answers: the socket is real and stays "connecting".
test('a host that does not answer within the connect timeout is given up and destroyed; the next one wins', async () => {
  const server = await listen();
  const { opened, connect } = recordingConnect(blackhole);
  try {
    const result = await dialFirstReachable([at('mgm1.blackhole', 1186), at('127.0.0.1', server.port)], { connectTimeoutMs: 100, connect });
    assert.equal(result.index, 1);
    assert.equal(opened[0]?.destroyed, true);
    result.socket.destroy();
  } finally {
    await server.close();
  }
});

test('when every host times out, each attempt says so', async () => {
  const { opened, connect } = recordingConnect(blackhole);
  const error = await rejection(dialFirstReachable([at('a.blackhole', 1), at('b.blackhole', 2)], { connectTimeoutMs: 50, connect }));
  assert.ok(error instanceof UnreachableError);
  assert.deepEqual(error.attempts, [
    { host: 'a.blackhole', port: 1, error: 'connect timed out after 50 ms' },
    { host: 'b.blackhole', port: 2, error: 'connect timed out after 50 ms' },
  ]);
  assert.ok(opened.length === 2 && opened.every((socket) => socket.destroyed));
});

test('aborting while connecting to a listening server destroys the socket and the server sees no connection left', async () => {
  const server = await listen();
  const { opened, connect } = recordingConnect();
  const controller = new AbortController();
  try {
    const dialing = dialFirstReachable([at('127.0.0.1', server.port)], { connectTimeoutMs: 10_000, signal: controller.signal, connect });
    controller.abort();
    const error = await rejection(dialing);
    assert.ok(error instanceof AbortedError);
    assert.equal(error.code, 'ABORTED');
    assert.equal(opened.length, 1);
    assert.equal(opened[0]?.destroyed, true);
    await waitFor('the server has no open connection', () => server.open.size === 0);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
  } finally {
    await server.close();
  }
});

test('aborting a hanging connect rejects with AbortedError and does not go on to the next host', async () => {
  const server = await listen();
  const controller = new AbortController();
  const { opened, connect } = recordingConnect((options) => {
    setImmediate(() => controller.abort());
    return blackhole(options);
  });
  try {
    const hosts = [at('mgm1.blackhole', 1186), at('127.0.0.1', server.port)];
    const error = await rejection(dialFirstReachable(hosts, { connectTimeoutMs: 60_000, signal: controller.signal, connect }));
    assert.ok(error instanceof AbortedError);
    assert.equal(opened.length, 1);
    assert.equal(opened[0]?.destroyed, true);
    assert.equal(server.accepted.length, 0);
  } finally {
    await server.close();
  }
});

test('an already aborted signal rejects without opening a socket', async () => {
  const { opened, connect } = recordingConnect();
  const error = await rejection(dialFirstReachable([at('127.0.0.1', 1186)], { connectTimeoutMs: 1000, signal: AbortSignal.abort(), connect }));
  assert.ok(error instanceof AbortedError);
  assert.equal(opened.length, 0);
});

test('aborting after the connection is made leaves the winner alone', async () => {
  const server = await listen();
  const controller = new AbortController();
  try {
    const result = await dialFirstReachable([at('127.0.0.1', server.port)], { connectTimeoutMs: 10_000, signal: controller.signal });
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
    controller.abort();
    assert.equal(result.socket.destroyed, false);
    result.socket.destroy();
  } finally {
    await server.close();
  }
});

test('a bind address sets the local address and port of the connection', async () => {
  const server = await listen();
  try {
    const localPort = await refusedPort();
    const byAddress = await dialAndAccept(server, [at('127.0.0.1', server.port, { host: '127.0.0.1', port: localPort })]);
    assert.equal(byAddress.peer.remotePort, localPort);
    byAddress.socket.destroy();

    const byName = await dialAndAccept(server, [at('127.0.0.1', server.port, { host: 'localhost', port: 0 })]);
    assert.equal(byName.peer.remoteAddress, '127.0.0.1');
    byName.socket.destroy();
  } finally {
    await server.close();
  }
});

test('a bind address that cannot be used fails that host only', async () => {
  const server = await listen();
  try {
    const hosts = [
      at('127.0.0.1', server.port, { host: '192.0.2.1', port: 0 }), // TEST-NET-1: never an address of this machine
      at('127.0.0.1', server.port, { host: 'no-such-host.invalid', port: 0 }),
    ];
    const error = await rejection(dialFirstReachable(hosts, { connectTimeoutMs: 10_000 }));
    assert.ok(error instanceof UnreachableError);
    assert.equal(error.attempts[0]?.error, 'EADDRNOTAVAIL binding to 192.0.2.1');
    assert.match(error.attempts[1]?.error ?? '', /^bind address no-such-host\.invalid: (ENOTFOUND|EAI_AGAIN|EAI_NONAME)$/);
    const result = await dialFirstReachable([...hosts, at('127.0.0.1', server.port)], { connectTimeoutMs: 10_000 });
    assert.equal(result.index, 2);
    result.socket.destroy();
  } finally {
    await server.close();
  }
});

test('IPv6: dials ::1', async (t) => {
  let server: TestServer;
  try {
    server = await listen('::1');
  } catch (error) {
    t.skip(`this machine cannot listen on ::1 (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    return;
  }
  try {
    const { socket, peer } = await dialAndAccept(server, [at('::1', server.port)]);
    assert.equal(peer.remoteAddress, '::1');
    assert.equal(socket.remoteAddress, '::1');
    socket.destroy();
  } finally {
    await server.close();
  }
});

test('bad arguments are programming errors', async () => {
  await assert.rejects(dialFirstReachable([], { connectTimeoutMs: 1000 }), RangeError);
  await assert.rejects(dialFirstReachable([at('127.0.0.1', 1)], { connectTimeoutMs: 0 }), RangeError);
  await assert.rejects(dialFirstReachable([at('127.0.0.1', 1)], { connectTimeoutMs: 1000, startIndex: 0.5 }), RangeError);
});
