import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NDBINFO_TABLES, type TableDef } from '../schema/tables.js';
import { CounterRates } from '../client/counter-rates.js';
import { classify, MalformedRowError, NdbinfoError, scrub } from '../client/errors.js';
import { LoadBudget, MAX_STRETCH } from '../client/load-budget.js';
import { readRow } from '../client/parse-row.js';
import { restartInProgress } from '../client/restart-progress.js';
import type { RestartRow } from '../client/rows.js';
import { parseSqlUrl } from '../client/sql-url.js';

const throwsCode = (fn: () => unknown, code: string, message?: RegExp): void => {
  assert.throws(fn, (e: unknown) => e instanceof NdbinfoError && e.code === code && (!message || message.test(e.message)));
};

describe('--sql URLs', () => {
  it('reads user, host and port, IPv6 in brackets, 3306 by default', () => {
    assert.deepEqual(parseSqlUrl('mysql://mon@db1'), { user: 'mon', host: 'db1', port: 3306, display: 'mysql://mon@db1:3306' });
    assert.deepEqual(parseSqlUrl('mysql://a%40b@[::1]:3307/'), { user: 'a@b', host: '::1', port: 3307, display: 'mysql://a%40b@[::1]:3307' });
  });

  it('refuses a password without printing it, and names what is wrong otherwise', () => {
    for (const u of ['mysql://mon:Secret1@db1', 'mysql://mon:@db1']) {
      throwsCode(() => parseSqlUrl(u), 'BAD_URL', /must not contain a password: .*--sql-password-file FILE.*NDBTOP_SQL_PASSWORD/);
      assert.throws(() => parseSqlUrl(u), (e: Error) => !e.message.includes('Secret1'));
    }
    throwsCode(() => parseSqlUrl('db1:3306'), 'BAD_URL', /must start with mysql:\/\//);
    throwsCode(() => parseSqlUrl('mysql://db1'), 'BAD_URL', /user is missing/);
    throwsCode(() => parseSqlUrl('mysql://u@db1:70000'), 'BAD_URL', /port/);
    throwsCode(() => parseSqlUrl('mysql://u@db1/test'), 'BAD_URL', /no path/);
    throwsCode(() => parseSqlUrl('mysql://u@'), 'BAD_URL', /host/);
  });
});

describe('row checks', () => {
  const memory = NDBINFO_TABLES.find((t) => t.name === 'memoryusage') as TableDef;
  // As the connection hands rows over: every value the bytes the server sent (typeCast: false), NULL as null.
  const wire = (row: unknown[]): unknown[] => row.map((v) => (v === null ? null : Buffer.from(String(v))));
  const read = (row: unknown[], secrets: string[] = []) => readRow(memory, memory.columns, wire(row), secrets);
  const malformed = (row: unknown, message: RegExp, secrets: string[] = []) =>
    assert.throws(() => readRow(memory, memory.columns, Array.isArray(row) ? wire(row) : row, secrets), (e: unknown) => e instanceof MalformedRowError && message.test(e.message));

  it('takes INT, BIGINT and DECIMAL sums from their text', () => {
    assert.deepEqual(read([1, 'Data memory', '9007199254740991', 3, '1073741824.0', 4]), { nodeId: 1, memoryType: 'Data memory', used: 9007199254740991, usedPages: 3, total: 1073741824, totalPages: 4 });
    assert.equal(read([1, 'Long message buffer', 0, 0, 0, 0]).memoryType, 'Long message buffer');
  });

  it('names table and column of a value that does not fit', () => {
    malformed([1, 'x', -1, 0, 0, 0], /^ndbinfo\.memoryusage\.used: expected an unsigned number, got "-1"$/);
    malformed([1, 'x', null, 0, 0, 0], /memoryusage\.used: .*got NULL/);
    malformed([1, 'x', 'lots', 0, 0, 0], /memoryusage\.used: .*got "lots"/);
    malformed([1, 'x', '99999999999999999999', 0, 0, 0], /memoryusage\.used: .*beyond 2\^53/);
    malformed([1, null, 0, 0, 0, 0], /memoryusage\.memory_type: .*got NULL/);
    malformed([1, 'x', 0, 0, 0], /memoryusage\.\*: expected 6 columns, got 5/);
    malformed({ node_id: 1 }, /memoryusage\.\*: expected a row/);
  });

  it('a number column is wholly a number: "x1y" (which mysql2 read as 7283) and its kin are refused', () => {
    for (const bad of ['x1y', '7x', ' 12', '12 ', '0x10', '1e3', '+5', '', '1.', '.5', '１２']) malformed([bad, 'x', 0, 0, 0, 0], /memoryusage\.node_id: expected an unsigned number/);
  });

  it('a value that holds a secret ndbtop keeps is scrubbed, in the row and in the error', () => {
    assert.equal(read([1, 'hunter2', 0, 0, 0, 0], ['hunter2', 'tok-9']).memoryType, '***');
    assert.equal(read([1, 'a hunter2 and tok-9', 0, 0, 0, 0], ['hunter2', 'tok-9']).memoryType, 'a *** and ***');
    malformed([1, 'x', 'hunter2', 0, 0, 0], /memoryusage\.used: expected an unsigned number, got "\*\*\*"$/, ['hunter2']);
  });
});

describe('driver errors', () => {
  const where = 'mysql://u@h:3306';
  it('each failure class gets its own code and message, without the password', () => {
    assert.equal(classify({ code: 'ENOTFOUND' }, where, ['pw']).code, 'UNKNOWN_HOST');
    assert.match(classify({ code: 'ENOTFOUND' }, where, ['pw']).message, /^mysql:\/\/u@h:3306: unknown host/);
    assert.equal(classify({ code: 'ECONNREFUSED' }, where, ['pw']).code, 'UNREACHABLE');
    assert.equal(classify({ code: 'ETIMEDOUT' }, where, ['pw'], 500).message, `${where}: no answer within 500 ms`);
    const denied = classify({ errno: 1045, sqlMessage: "Access denied for user 'u' (using password: YES) pw-Xy tok-1" }, where, ['pw-Xy', 'tok-1']);
    assert.equal(denied.code, 'ACCESS_DENIED');
    assert.ok(!denied.message.includes('pw-Xy') && !denied.message.includes('tok-1'));
    assert.equal(classify({ errno: 1049 }, where, []).code, 'NO_NDBINFO');
    assert.equal(classify({ errno: 3159, sqlMessage: 'secure transport required' }, where, []).code, 'TLS');
  });
});

describe('scrub', () => {
  it('a short password is not taken for the letters of ordinary text', () => {
    assert.equal(scrub('Unexpected packet', ['n']), 'Unexpected packet');
    assert.equal(classify({ code: 'PROTOCOL_PACKETS_OUT_OF_ORDER', message: 'Unexpected packet' }, 'mysql://u@h:3306', ['n']).message, 'mysql://u@h:3306: Unexpected packet');
    assert.equal(scrub('the hunter2x node', ['hunter2']), 'the hunter2x node', 'another word');
  });

  it('a short password where leaks write it: quoted, in a connection string, given to a key, as a word of its own', () => {
    assert.equal(scrub("ALTER USER 'u'@'%' IDENTIFIED BY 'n'", ['n']), "ALTER USER 'u'@'%' IDENTIFIED BY '***'");
    assert.equal(scrub('mysql://u:n@h:3306 (password="n")', ['n']), 'mysql://u:***@h:3306 (password="***")');
    assert.equal(scrub('user=u;password=n;host=h', ['n']), 'user=u;password=***;host=h');
    assert.equal(scrub("IDENTIFIED BY 'pw1' and pw1; not pw12", ['pw1']), "IDENTIFIED BY '***' and pw1; not pw12", 'three letters: only where secrets are written');
    assert.equal(scrub('login as u with hunt, then (hunt)', ['hunt']), 'login as u with ***, then (***)');
  });

  it('a long secret goes wherever it appears, inside words too', () => {
    assert.equal(scrub('x-serve-token-1618-y and abcserve-token-1618', ['serve-token-1618']), 'x-***-y and abc***');
    assert.equal(scrub('no secret here', ['serve-token-1618', 'n']), 'no secret here');
    assert.equal(scrub('a.b* (x)', ['.b*']), 'a.b* (x)', 'a secret with regular-expression characters is text');
    assert.equal(scrub("pw '.b*'", ['.b*']), "pw '***'");
  });
});

describe('counter rates', () => {
  it('per second between readings; nothing at the first, nor when the counter went back (a data node restart)', () => {
    const r = new CounterRates();
    assert.equal(r.rate('k', 100, 1000), null);
    assert.equal(r.rate('k', 600, 1500), 1000);
    assert.equal(r.rate('k', 50, 2500), null);
    assert.equal(r.rate('k', 150, 3500), 100);
    assert.equal(r.rate('k', 150, 3500), null, 'no time passed');
  });
});

describe('self-load budget', () => {
  it('stretches intervals when queries take more than the share, then sheds, and relaxes when they are cheap', () => {
    const b = new LoadBudget({ share: 0.1, windowMs: 1000 }, 0);
    let t = 0;
    const run = (ms: number, every: number, until: number) => {
      for (; t < until; t += every) b.record(t, ms);
    };
    run(50, 100, 1000);
    assert.equal(b.stretch, 1, 'no change before a window has passed');
    run(50, 100, 1100);
    assert.equal(b.stretch, 2, '50 ms every 100 ms is 50 %: over a 10 % share');
    run(50, 100, 1000 * 6);
    assert.equal(b.stretch, MAX_STRETCH);
    run(50, 100, 1000 * 7 + 100);
    assert.equal(b.shedding, true);
    run(1, 1000, 1000 * 9);
    assert.equal(b.shedding, false, 'cheap again: first the shed readings come back');
    run(1, 1000, 1000 * 20);
    assert.equal(b.stretch, 1);
    assert.ok(b.state(t).load < 0.01);
  });
});

describe('restart progress', () => {
  const row = (status: string, statusInt: number, statusName: string | null): RestartRow => ({ nodeId: 1, status, statusInt, statusName, phases: {}, totalSecs: 0 });
  it('trusts the text, the number only without one', () => {
    assert.equal(restartInProgress(row('Restart completed', 7, 'NDBCNTR_STARTED')), false);
    assert.equal(restartInProgress(row('Executing redo log', 19, 'RESTART_COMPLETED')), true);
    assert.equal(restartInProgress(row('', 14, 'UNDO_DD_COMPLETED')), true);
    assert.equal(restartInProgress(row('', 19, 'RESTART_COMPLETED')), false);
  });
});
