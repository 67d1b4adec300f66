import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigIniError, parseConfigIni } from '../config-ini.js';

const INI = `
# two management servers, four data nodes, two replicas
[ndbd default]
NoOfReplicas=2
DataMemory=512M
IndexMemory: 64M
StopOnError=N
Arbitration=WaitExternal

[ndb_mgmd]
NodeId=1
HostName=127.0.0.1
PortNumber=1186
[ndb_mgmd]
NodeId=2
HostName=127.0.0.1

[ndbd]
NodeId=11
HostName=db1.example.com
[ndbd]
NodeId=12
HostName=db2.example.com
DataDir=/data/12
[ndbd]
HostName=db3.example.com
[ndbd]
HostName=db4.example.com

[mysqld]
[api]
NodeId=50
[tcp default]
SendBufferMemory=4M
[system]
Name=rehearsal
`;

test('config.ini: sections, defaults, suffixes, booleans, enums, automatic node ids and node groups', () => {
  const c = parseConfigIni(INI);
  assert.equal(c.name, 'rehearsal');
  assert.deepEqual(c.nodes.map((n) => [n.nodeId, n.type]), [[1, 'MGM'], [2, 'MGM'], [11, 'NDB'], [12, 'NDB'], [13, 'NDB'], [14, 'NDB'], [15, 'API'], [50, 'API']]);
  const data = c.nodes.filter((n) => n.type === 'NDB');
  assert.deepEqual(data.map((n) => n.nodeGroup), [0, 0, 1, 1]);
  assert.deepEqual(data.map((n) => n.hostname), ['db1.example.com', 'db2.example.com', 'db3.example.com', 'db4.example.com']);
  for (const d of data) {
    assert.equal(d.params['DataMemory'], 512 * 1024 ** 2);
    assert.equal(d.params['IndexMemory'], 64 * 1024 ** 2);
    assert.equal(d.params['NoOfReplicas'], 2);
    assert.equal(d.params['StopOnError'], 0);
    assert.equal(d.params['Arbitration'], 2);
    assert.equal(d.params['MaxNoOfTables'], 128);
  }
  assert.equal(data[1]!.params['FileSystemPath'], '/data/12');
  assert.equal(data[1]!.params['BackupDataDir'], '/data/12');
  assert.equal(c.nodes[1]!.params['PortNumber'], 1186);
  assert.equal(c.connections.length, 6 + 4 * 2 + 4 * 2);
  assert.ok(c.connections.every((x) => x.params['SendBufferMemory'] === 4 * 1024 ** 2));
});

test('config.ini errors name the line', () => {
  assert.throws(() => parseConfigIni('[ndbd]\nFooBar=1\n'), (e: unknown) => e instanceof ConfigIniError && /line 2: \[NDB\] has no parameter FooBar/.test(e.message));
  assert.throws(() => parseConfigIni('[ndb_mgmd]\n[ndbd]\nDataMemory=lots\n'), /line 3: DataMemory must be a number/);
  assert.throws(() => parseConfigIni('[ndb_mgmd]\nNodeId=1\n[ndbd]\nNodeId=1\n'), /line 3: duplicate NodeId 1/);
  assert.throws(() => parseConfigIni('[ndbd]\n'), /no \[ndb_mgmd\] section/);
  assert.throws(() => parseConfigIni('[computer]\n'), /unknown section/);
});
