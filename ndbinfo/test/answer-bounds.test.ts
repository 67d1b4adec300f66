import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_ANSWER_BYTES, rowLimit } from '../client/answer-limits.js';
import { NdbinfoError } from '../client/errors.js';
import { readOnce } from '../client/read-once.js';
import { READINGS } from '../client/readings.js';
import { parseSqlUrl } from '../client/sql-url.js';
import { columnsOf, cpuRow, startHostileSqlNode, type HostileSqlNode, type Reply } from './hostile-sql-node.js';
import { isState, recordingSource, waitFor } from './source-helpers.js';

// Generous: on a loaded machine the server (in this process) writes the rows before the limit slowly.
const TIMEOUTS = { connectTimeoutMs: 10_000, queryTimeoutMs: 90_000 };
const CPU_PER_NODE = READINGS.find((r) => r.key === 'cpu')?.rowsPerNode ?? 0;

async function failure(p: Promise<unknown>): Promise<NdbinfoError> {
  const err = await p.then(() => null, (e: unknown) => e);
  assert.ok(err instanceof NdbinfoError, `expected an NdbinfoError, got ${String(err)}`);
  return err;
}

/** An SQL node whose cpustat answer is `reply`. */
function cpustat(reply: Omit<Extract<Reply, { kind: 'rows' }>, 'kind' | 'columns'>): () => Reply {
  return () => ({ kind: 'rows', columns: columnsOf('cpustat', ['thread_name']), ...reply });
}

describe('an SQL node that answers without bounds', () => {
  let node: HostileSqlNode;
  let answer: () => Reply = () => ({ kind: 'silent' });
  before(async () => {
    node = await startHostileSqlNode(() => answer());
  });
  after(() => node.close());

  it('a million rows of cpustat: the answer is cut at the row limit, the error names the table and the limit', async () => {
    answer = cpustat({ count: 1_000_000, row: (i) => cpuRow(1 + (i % 144), i, 'ldm') });
    const before = node.written;
    const limit = rowLimit(CPU_PER_NODE, null);
    const err = await failure(readOnce([parseSqlUrl(node.url)], undefined, TIMEOUTS));
    assert.equal(err.code, 'TOO_LARGE');
    assert.match(err.message, new RegExp(`ndbinfo\\.cpustat passed ${limit} rows \\(its limit\\); the connection was cut`));
    // The server could write a little past the limit before the cut reached it, never the whole answer.
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(node.written - before < 1_000_000 / 2, `the server stopped early: ${node.written - before} rows written`);
  });

  it('the row limit follows the cluster shape: 2 data nodes bound cpustat far below the default', async () => {
    answer = cpustat({ count: 5000, row: (i) => cpuRow(1 + (i % 2), i, 'ldm') });
    const { source, events } = recordingSource({ addresses: [parseSqlUrl(node.url)], password: undefined, queryTimeoutMs: 90_000 });
    source.setShape({ dataNodes: 2 });
    source.start();
    try {
      const lost = events[await waitFor(events, (e) => isState('lost')(e) && e.type === 'state' && e.state.kind === 'lost' && e.state.code === 'TOO_LARGE')];
      assert.ok(lost?.type === 'state' && lost.state.kind === 'lost');
      const limit = rowLimit(CPU_PER_NODE, { dataNodes: 2 });
      assert.ok(limit < 5000);
      assert.match(lost.state.reason, new RegExp(`ndbinfo\\.cpustat passed ${limit} rows`));
    } finally {
      await source.close();
    }
  });

  it('a few rows of a megabyte each pass the byte limit long before the row limit', async () => {
    const big = 'x'.repeat(1024 * 1024);
    answer = cpustat({ count: 64, row: (i) => cpuRow(1, i, big) });
    const err = await failure(readOnce([parseSqlUrl(node.url)], undefined, TIMEOUTS));
    assert.equal(err.code, 'TOO_LARGE');
    assert.match(err.message, new RegExp(`ndbinfo\\.cpustat passed ${MAX_ANSWER_BYTES} bytes \\(its limit\\)`));
  });

  it('"x1y" in a number column is refused, naming table and column (mysql2 read it as 7283)', async () => {
    answer = cpustat({ count: 3, row: (i) => cpuRow(i === 1 ? 'x1y' : 1, i, 'ldm') });
    const err = await failure(readOnce([parseSqlUrl(node.url)], undefined, TIMEOUTS));
    assert.equal(err.code, 'MALFORMED');
    assert.match(err.message, /ndbinfo\.cpustat\.node_id: expected an unsigned number, got "x1y"/);
  });

  it('good rows still read, thread names as sent', async () => {
    answer = cpustat({ count: 4, row: (i) => cpuRow(1 + (i % 2), i, `t${i}`) });
    const snap = await readOnce([parseSqlUrl(node.url)], undefined, TIMEOUTS);
    assert.deepEqual(snap.samples.cpu?.rows.map((r) => [r.nodeId, r.thrNo, r.threadName, r.threadExec]), [[1, 0, 't0', 10], [2, 1, 't1', 10], [1, 2, 't2', 10], [2, 3, 't3', 10]]);
  });
});
