import { startSimulator } from './native-mgm/sim/index.js';
import { NdbinfoSql } from './ndbinfo/sim/sql/engine.js';
import { NdbinfoSnapshot } from './ndbinfo/sim/snapshot.js';
const sim = await startSimulator({ scenario: 'flexasynch', dataNodes: 144, apiNodes: 8 } as any);
const eng = await NdbinfoSql.create(sim.model, '8.4.3-cluster');
const session = { database: 'ndbinfo', user: 'root', host: 'x', connectionId: 1 };
const q = 'SELECT `node_id`, `remote_node_id`, `status`, `remote_address`, `bytes_sent`, `bytes_received`, `connect_count`, `overloaded`, `overload_count`, `slowdown`, `slowdown_count` FROM ndbinfo.`transporters` ORDER BY `node_id`, `remote_node_id`';
for (let i = 0; i < 4; i++) {
  await new Promise((r) => setTimeout(r, 1100));
  const t0 = performance.now();
  (eng as any).snapshot.prepare(q);
  const t1 = performance.now();
  const r = eng.execute(q, session as any);
  const t2 = performance.now();
  console.log('prepare', (t1 - t0).toFixed(0), 'execute(incl. prepare no-op)', (t2 - t1).toFixed(0), 'rows', r.kind === 'result' ? r.result.rows.length : 0);
}
// split prepare: rows generation vs insert
const { TABLE_ROWS } = await import('./ndbinfo/sim/rows/index.js');
const m = sim.model as any;
const ctx = { model: m, at: m.clock.now(), nodes: m.activity.reportingNodes() };
let t = performance.now(); const rows = TABLE_ROWS.transporters!(ctx); console.log('rows gen', (performance.now() - t).toFixed(0), rows.length);
t = performance.now(); const rows2 = TABLE_ROWS.cpustat!(ctx); console.log('cpustat gen', (performance.now() - t).toFixed(0), rows2.length);
await sim.close();
process.exit(0);
