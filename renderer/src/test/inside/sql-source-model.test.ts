import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NdbinfoView } from '../../contract.js';
import { profileSqlUrls, sqlSourceSummary } from '../../view-model/inside/sql-source.js';

const now = 1_000_000;
const up: NdbinfoView = {
  source: { status: 'up', since: now - 75_000, sqlNode: 'mysql://monitor@10.0.0.7:3306', serverVersion: '8.4.3-cluster', tls: true, missing: [], failovers: 0, lastError: null },
  selfLoad: { at: now, share: 0.034, load: 0.3, stretch: 1, shedding: false, queries: 120, readings: { cpu: { intervalMs: 1000, lastMs: 30, meanMs: 28, paused: false } } },
  links: null,
};

test('the SQL source in Settings: which SQL node, for how long, and what watching costs it', () => {
  const s = sqlSourceSummary(up, now);
  assert.deepEqual([s.word, s.tone], ['UP', 'ok']);
  assert.equal(s.where, 'mysql://monitor@10.0.0.7:3306 · 8.4.3-cluster · TLS');
  assert.equal(s.since, '1 min 15 s');
  assert.equal(s.load, "queries take 3.4 % of the SQL node's time (120 so far)");
  assert.deepEqual(s.readings, [], 'readings on their own intervals are not listed');
  assert.equal(s.missing, null);
});

test('over budget: the tone warns and the stretched or paused readings are named; missing tables and errors are said', () => {
  const shedding = sqlSourceSummary(
    {
      ...up,
      source: { ...up.source, status: 'lost', missing: ['transporter_details'], failovers: 2, lastError: 'connection lost: ECONNRESET' },
      selfLoad: { ...up.selfLoad!, stretch: 4, shedding: true, readings: { cpu: { intervalMs: 4000, lastMs: 900, meanMs: 1200, paused: false }, logbuffers: { intervalMs: 20_000, lastMs: null, meanMs: null, paused: true } } },
    },
    now,
  );
  assert.deepEqual([shedding.word, shedding.tone], ['LOST — RETRYING', 'bad']);
  assert.equal(shedding.since, '1 min 15 s · 2 failovers');
  assert.match(shedding.load ?? '', /over budget: readings 4× apart, the least needed paused/);
  assert.deepEqual(shedding.readings, ['cpu every 4 s (mean 1.2 s)', 'logbuffers paused']);
  assert.equal(shedding.missing, 'this SQL node has no transporter_details: those figures stay empty');
  assert.equal(shedding.lastError, 'connection lost: ECONNRESET');
  assert.equal(sqlSourceSummary({ ...up, selfLoad: { ...up.selfLoad!, shedding: true } }, now).tone, 'warn', 'up but shedding');
});

test('connected but its readings failing: FAILING, in the bad tone, with the error in words', () => {
  const failing = sqlSourceSummary({ ...up, source: { ...up.source, status: 'failing', lastError: 'mysql://monitor@10.0.0.7:3306: ndbinfo.cpustat has not answered for 2000 ms' } }, now);
  assert.deepEqual([failing.word, failing.tone], ['FAILING', 'bad']);
  assert.equal(failing.lastError, 'mysql://monitor@10.0.0.7:3306: ndbinfo.cpustat has not answered for 2000 ms');
});

test("a profile's SQL nodes: the user typed once for each ticked API node, other URLs as typed, no repeats", () => {
  assert.deepEqual(profileSqlUrls('monitor', ['mysql://10.0.0.7:3306', 'mysql://[fe80::1]:3306'], ''), ['mysql://monitor@10.0.0.7:3306', 'mysql://monitor@[fe80::1]:3306']);
  assert.deepEqual(profileSqlUrls('mon itor', ['mysql://h:3306'], 'mysql://a@b:3307, mysql://a@b:3307'), ['mysql://mon%20itor@h:3306', 'mysql://a@b:3307']);
  assert.deepEqual(profileSqlUrls('', [], ''), []);
  assert.throws(() => profileSqlUrls(' ', ['mysql://h:3306'], ''), /type the MySQL user/);
});
