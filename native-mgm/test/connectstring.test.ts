import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { formatConnectstring, parseConnectstring, resolveConnectstring } from '../connectstring.js';
import type { MgmHost } from '../connectstring.js';
import { ConnectstringError } from '../errors.js';

type Expected = { nodeId?: number | null; hosts: Array<[string, number] | [string, number, string, number]>; files?: string[] };

function hostsOf(expected: Expected['hosts']): MgmHost[] {
  return expected.map(([host, port, bindHost, bindPort]) => ({
    host,
    port,
    bindAddress: bindHost === undefined || bindPort === undefined ? null : { host: bindHost, port: bindPort },
  }));
}

const valid: Array<[string, Expected]> = [
  // The examples of spec §2.1.
  ['mgm1,mgm2:1187', { hosts: [['mgm1', 1186], ['mgm2', 1187]] }],
  ['nodeid=50,host=10.0.0.11:1186,host=10.0.0.12:1186', { nodeId: 50, hosts: [['10.0.0.11', 1186], ['10.0.0.12', 1186]] }],
  ['[fd00::11]:1186;[fd00::12]:1186', { hosts: [['fd00::11', 1186], ['fd00::12', 1186]] }],
  // Every item kind.
  ['host=a', { hosts: [['a', 1186]] }],
  ['mgmd=a:2000', { hosts: [['a', 2000]] }],
  ['host://a:2000', { hosts: [['a', 2000]] }],
  ['a', { hosts: [['a', 1186]] }],
  ['1.2.3.4:1187', { hosts: [['1.2.3.4', 1187]] }],
  ['my_host-1.example.com:4', { hosts: [['my_host-1.example.com', 4]] }],
  ['nodeid=7,a', { nodeId: 7, hosts: [['a', 1186]] }],
  ['OwnProcessId 7,a', { nodeId: 7, hosts: [['a', 1186]] }],
  ['file=/etc/ndb.cfg,a', { hosts: [['a', 1186]], files: ['/etc/ndb.cfg'] }],
  ['file:///etc/ndb.cfg', { hosts: [], files: ['/etc/ndb.cfg'] }],
  ['#comment with spaces: and = signs,a', { hosts: [['a', 1186]] }],
  ['a,#b,c', { hosts: [['a', 1186], ['c', 1186]] }],
  // IPv6 forms.
  ['[::1]', { hosts: [['::1', 1186]] }],
  ['[2001:db8::1]:20', { hosts: [['2001:db8::1', 20]] }],
  ['::1', { hosts: [['::1', 1186]] }],
  ['fed0:10::182', { hosts: [['fed0:10::182', 1186]] }],
  ['fed0:10:0:ff:11:22:33:182', { hosts: [['fed0:10:0:ff:11:22:33:182', 1186]] }],
  ['host=[fed0:10:0:ff:11:22:33:182]:1186', { hosts: [['fed0:10:0:ff:11:22:33:182', 1186]] }],
  // "host port", the server's own spelling.
  ['localhost 13001', { hosts: [['localhost', 13001]] }],
  ['localhost   13001', { hosts: [['localhost', 13001]] }],
  ['fed0:10:0:ff:11:22:33:182 1186', { hosts: [['fed0:10:0:ff:11:22:33:182', 1186]] }],
  ['[2001:db8::1] 20', { hosts: [['2001:db8::1', 20]] }],
  // Numbers: hex, zero, limits.
  ['a:0x4a2', { hosts: [['a', 1186]] }],
  ['a:0X4A2', { hosts: [['a', 1186]] }],
  ['a:65535', { hosts: [['a', 65535]] }],
  ['nodeid=0x10,a', { nodeId: 16, hosts: [['a', 1186]] }],
  ['nodeid=0,a', { nodeId: 0, hosts: [['a', 1186]] }],
  // Separators: runs count as one, ends are ignored.
  ['a,,b;;;c,;d', { hosts: [['a', 1186], ['b', 1186], ['c', 1186], ['d', 1186]] }],
  [';,a,;', { hosts: [['a', 1186]] }],
  // No host: the caller falls back.
  ['', { hosts: [] }],
  ['nodeid=3', { nodeId: 3, hosts: [] }],
  [',;,', { hosts: [] }],
  // bind-address: before any host = for all hosts; after a host = for that host only.
  ['bind-address=10.0.0.1,a,b', { hosts: [['a', 1186, '10.0.0.1', 0], ['b', 1186, '10.0.0.1', 0]] }],
  ['a,bind-address=10.0.0.1:5000,b', { hosts: [['a', 1186, '10.0.0.1', 5000], ['b', 1186]] }],
  ['bind-address=10.0.0.1,a,bind-address=10.0.0.2,b', { hosts: [['a', 1186, '10.0.0.2', 0], ['b', 1186, '10.0.0.1', 0]] }],
  ['bind-address=x,bind-address=y,a', { hosts: [['a', 1186, 'y', 0]] }],
  ['a,bind-address=[::1]', { hosts: [['a', 1186, '::1', 0]] }],
  ['a,bind-address=[::1]:0x10', { hosts: [['a', 1186, '::1', 16]] }],
  ['a,bind-address=::1', { hosts: [['a', 1186, '::1', 0]] }],
  ['a,bind-address=b 7', { hosts: [['a', 1186, 'b', 7]] }],
];

for (const [input, expected] of valid) {
  test(`parses ${JSON.stringify(input)}`, () => {
    assert.deepEqual(parseConnectstring(input), {
      nodeId: expected.nodeId ?? null,
      hosts: hostsOf(expected.hosts),
      files: expected.files ?? [],
    });
  });
}

const invalid: Array<[input: string, position: number, reason: RegExp]> = [
  ['a, b', 2, /spaces are not trimmed/],
  ['a ,b', 0, /spaces are not trimmed/],
  ['host= a', 0, /spaces are not trimmed/],
  ['x,y,x:y:z', 4, /several colons but not an IPv6 address.*\[address\]:port/],
  ['fed0:10:0:ff:11:22:33:182:1186', 0, /not an IPv6 address/],
  ['host:01186', 0, /port "01186" has a leading zero, which NDB tools reject as bad octal/],
  ['host:01000', 0, /leading zero, which NDB tools read as octal \(= 512\)/],
  ['a,nodeid=010', 2, /node id "010" has a leading zero/],
  ['a:65536', 0, /port 65536 is out of range 0\.\.65535/],
  ['a:0x10000', 0, /out of range/],
  ['a:0', 0, /port 0 cannot be used for a management server/],
  ['a:-1', 0, /port "-1" is not a number/],
  ['a:+5', 0, /not a number/],
  ['a:0x', 0, /not a number/],
  ['a:12ab', 0, /not a number/],
  ['a:', 0, /port is empty/],
  ['[::1]:', 0, /port is empty/],
  ['a 1186 x', 0, /port "1186 x" is not a number/],
  ['a:1186 99', 0, /"a:1186" already has a port/],
  ['1.2.3.4:5 4444', 0, /already has a port/],
  ['[::1', 0, /without a closing/],
  ['[abc]:1', 0, /"abc" in brackets is not an IPv6 address/],
  ['[::1]x', 0, /unexpected "x" after "\]"/],
  ['host=', 0, /no management server given/],
  ['mgmd=:1186', 0, /no host name/],
  ['a,bind-address=', 2, /no bind address given/],
  ['a,bind-address=b:70000', 2, /out of range/],
  ['nodeid=1,a,nodeid=2', 11, /node id is given more than once/],
  ['OwnProcessId 1,nodeid=1', 15, /more than once/],
  ['nodeid=', 0, /node id is empty/],
  ['nodeid=x', 0, /node id "x" is not a number/],
  ['nodeid=5 ', 0, /not a number/],
  ['nodeid=65536', 0, /out of range/],
  ['HOST=a', 0, /unknown prefix "HOST=" \(prefixes are case-sensitive\)/],
  ['a;hots=b', 2, /unknown prefix "hots="; known prefixes/],
  ['mgmd://a', 0, /unknown prefix "mgmd:\/\/"/],
  ['a#b', 0, /"#" starts a comment only at the start of an item/],
  ['a\tb', 0, /is not a valid host name/],
  ['good,,also-good;bad host name', 16, /port "host name" is not a number/],
];

for (const [input, position, reason] of invalid) {
  test(`rejects ${JSON.stringify(input)} at position ${position}`, () => {
    assert.throws(
      () => parseConnectstring(input),
      (error: unknown) => {
        assert.ok(error instanceof ConnectstringError);
        assert.equal(error.code, 'BAD_CONNECTSTRING');
        assert.equal(error.input, input);
        assert.equal(error.position, position);
        const item = /[^,;]+/.exec(input.slice(position))?.[0];
        assert.ok(error.message.startsWith(`Unexpected entry: "${item}" at position ${position}: `), error.message);
        assert.match(error.message, reason);
        return true;
      },
    );
  });
}

test('formats hosts with IPv6 brackets and per-host bind addresses', () => {
  const text = formatConnectstring(hostsOf([['a', 1186], ['fd00::1', 1187, '10.0.0.1', 0], ['b', 1, '::1', 5]]));
  assert.equal(text, 'a:1186,[fd00::1]:1187,bind-address=10.0.0.1,b:1,bind-address=[::1]:5');
});

const hostName = fc.oneof(fc.domain(), fc.ipV4(), fc.ipV6());
const mgmHost: fc.Arbitrary<MgmHost> = fc.record({
  host: hostName,
  port: fc.integer({ min: 1, max: 65535 }),
  bindAddress: fc.option(fc.record({ host: hostName, port: fc.integer({ min: 0, max: 65535 }) }, { noNullPrototype: true }), { nil: null }),
}, { noNullPrototype: true });

test('formatting and re-parsing a host list gives the same list', () => {
  fc.assert(
    fc.property(fc.array(mgmHost, { maxLength: 6 }), (hosts) => {
      assert.deepEqual(parseConnectstring(formatConnectstring(hosts)).hosts, hosts);
    }),
  );
});

test('any input either parses or names the start of an item as the position', () => {
  const alphabet = fc.constantFrom(...'ab1:0x[];, =#.-'.split(''), 'nodeid=', 'host=', 'bind-address=');
  fc.assert(
    fc.property(fc.array(alphabet, { maxLength: 12 }).map((parts) => parts.join('')), (input) => {
      try {
        parseConnectstring(input);
      } catch (error) {
        assert.ok(error instanceof ConnectstringError);
        assert.ok(error.position >= 0 && error.position < input.length);
        assert.doesNotMatch(input.charAt(error.position), /[,;]/);
        assert.ok(error.position === 0 || /[,;]/.test(input.charAt(error.position - 1)));
      }
    }),
  );
});

function withTempDirs(body: (home: string, cwd: string) => void): void {
  const root = mkdtempSync(join(tmpdir(), 'ndbtop-cs-'));
  const home = join(root, 'home');
  const cwd = join(root, 'cwd');
  mkdirSync(home);
  mkdirSync(cwd);
  try {
    body(home, cwd);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('resolve: an explicit string with hosts wins over everything else', () => {
  withTempDirs((home, cwd) => {
    writeFileSync(join(cwd, 'Ndb.cfg'), 'fromfile\n');
    const resolved = resolveConnectstring({ explicit: 'x:1', env: { NDB_CONNECTSTRING: 'fromenv', NDB_HOME: home }, cwd });
    assert.equal(resolved.source, 'explicit');
    assert.equal(resolved.text, 'x:1');
    assert.deepEqual(resolved.hosts, hostsOf([['x', 1]]));
  });
});

test('resolve: an explicit string without hosts lets the search go on, keeping its node id', () => {
  withTempDirs((_home, cwd) => {
    const resolved = resolveConnectstring({ explicit: 'nodeid=9', env: { NDB_CONNECTSTRING: 'fromenv:5' }, cwd });
    assert.equal(resolved.source, 'env');
    assert.equal(resolved.nodeId, 9);
    assert.deepEqual(resolved.hosts, hostsOf([['fromenv', 5]]));
    const own = resolveConnectstring({ explicit: 'nodeid=9', env: { NDB_CONNECTSTRING: 'nodeid=4,fromenv' }, cwd });
    assert.equal(own.nodeId, 4);
  });
});

test('resolve: an invalid explicit string is an error even when the environment is fine', () => {
  assert.throws(() => resolveConnectstring({ explicit: 'a, b', env: { NDB_CONNECTSTRING: 'ok' } }), ConnectstringError);
});

test('resolve: NDB_CONNECTSTRING comes before Ndb.cfg files; an empty one is skipped', () => {
  withTempDirs((home, cwd) => {
    writeFileSync(join(home, 'Ndb.cfg'), 'fromhome\n');
    const env = resolveConnectstring({ env: { NDB_CONNECTSTRING: 'fromenv', NDB_HOME: home }, cwd });
    assert.equal(env.source, 'env');
    assert.equal(env.hosts[0]?.host, 'fromenv');
    const skipped = resolveConnectstring({ explicit: '', env: { NDB_CONNECTSTRING: '', NDB_HOME: home }, cwd });
    assert.equal(skipped.source, 'file');
    assert.equal(skipped.hosts[0]?.host, 'fromhome');
  });
});

test('resolve: a bad or host-less NDB_CONNECTSTRING is an error that names it', () => {
  assert.throws(
    () => resolveConnectstring({ env: { NDB_CONNECTSTRING: 'a,b:x' } }),
    (error: unknown) => error instanceof ConnectstringError && error.position === 2 && error.message.startsWith('NDB_CONNECTSTRING: Unexpected entry: "b:x"'),
  );
  assert.throws(
    () => resolveConnectstring({ env: { NDB_CONNECTSTRING: 'nodeid=3' } }),
    (error: unknown) => error instanceof ConnectstringError && /NDB_CONNECTSTRING "nodeid=3" names no management server/.test(error.message),
  );
});

test('resolve: Ndb.cfg lines are trimmed, comments and blank lines dropped, the rest joined with ";"', () => {
  withTempDirs((home, cwd) => {
    writeFileSync(join(home, 'Ndb.cfg'), '# cluster A\n\n  nodeid=5 \r\n\thost=m1:1187\n#host=old\nm2\n');
    const resolved = resolveConnectstring({ env: { NDB_HOME: home }, cwd });
    assert.equal(resolved.source, 'file');
    assert.equal(resolved.text, 'nodeid=5;host=m1:1187;m2');
    assert.equal(resolved.nodeId, 5);
    assert.deepEqual(resolved.hosts, hostsOf([['m1', 1187], ['m2', 1186]]));
  });
});

test('resolve: Ndb.cfg in NDB_HOME comes before the one in the current directory, which is used when the first is missing', () => {
  withTempDirs((home, cwd) => {
    writeFileSync(join(cwd, 'Ndb.cfg'), 'fromcwd\n');
    assert.equal(resolveConnectstring({ env: { NDB_HOME: home }, cwd }).hosts[0]?.host, 'fromcwd');
    assert.equal(resolveConnectstring({ env: {}, cwd }).hosts[0]?.host, 'fromcwd');
    writeFileSync(join(home, 'Ndb.cfg'), 'fromhome\n');
    assert.equal(resolveConnectstring({ env: { NDB_HOME: home }, cwd }).hosts[0]?.host, 'fromhome');
  });
});

test('resolve: a bad Ndb.cfg is an error naming the file and the position in the joined text', () => {
  withTempDirs((_home, cwd) => {
    const path = join(cwd, 'Ndb.cfg');
    writeFileSync(path, 'm1\nm2:01186\n');
    assert.throws(
      () => resolveConnectstring({ env: {}, cwd }),
      (error: unknown) =>
        error instanceof ConnectstringError &&
        error.input === 'm1;m2:01186' &&
        error.position === 3 &&
        error.message.startsWith(`Reading ${path}: Unexpected entry: "m2:01186" at position 3`),
    );
  });
});

test('resolve: with nothing configured the default is localhost:1186', () => {
  withTempDirs((home, cwd) => {
    const resolved = resolveConnectstring({ env: { NDB_HOME: home }, cwd });
    assert.equal(resolved.source, 'default');
    assert.equal(resolved.text, 'host=localhost:1186');
    assert.deepEqual(resolved.hosts, hostsOf([['localhost', 1186]]));
    assert.equal(resolved.nodeId, null);
  });
});
