import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { ChildProcess } from 'node:child_process';
import type { Run, RunReport, Comparison } from '../../contract/schemas/runs.js';
import { startSimulator, type RunMarker, type Simulator } from '../../../native-mgm/sim/index.js';
import { httpRunMarker } from '../../serve/runs-client.js';
import { num } from '../../engine/features/runs/report-format.js';
import { indexRecording, offsetBefore } from '../../engine/recording/recording-index.js';
import { waitFor } from '../../engine/test/helpers.js';
import { EXIT } from '../exit-codes.js';
import { runCli, spawnCli } from './run-cli.js';

type JsonRun = Omit<RunReport, 'series'>;

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ndbtop-record-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `ndbtop record … --port 0` in its own process; resolves with its URL once the banner is out. */
async function startRecord(sim: Simulator, out: string, env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawnCli(['record', '-c', sim.connectstring, '--out', out, '--port', '0', '--poll', '500'], env);
  let text = '';
  child.stderr?.on('data', (d: Buffer) => (text += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      text += d.toString();
      const m = /listening on (http:\/\/\S+)[\s\S]*runs endpoint/.exec(text);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('close', () => reject(new Error(`record exited early: ${text}`)));
  });
  return { child, url, output: () => text };
}

async function runs(url: string): Promise<JsonRun[]> {
  return ((await (await fetch(new URL('/api/runs', url))).json()) as { runs: JsonRun[] }).runs;
}

/** Detaches itself after the stop, so the driver waits for the next recording's marker before its next run. */
function oneRun(sim: Simulator, marker: RunMarker): RunMarker {
  return { start: marker.start, phase: marker.phase, stop: async () => {
    await marker.stop();
    sim.marks.attach(null);
  } };
}

async function stopRecord(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  child.kill(signal);
  const [code] = (await once(child, 'close')) as [number | null];
  assert.equal(code, 0, `record exits 0 on ${signal}`);
}

test('record + report on the flexAsynch-like scenario: the report has the live engine figures, in Markdown and JSON', async () => {
  const speed = 8;
  const sim = await startSimulator({ scenario: 'flexasynch', dataNodes: 2, speed, waitForMarker: true });
  const file = join(dir, 'flex.jsonl');
  // Keyframes every 2 s and a lead of 5 s before a run (10 s and 30 s by default): at speed 8 that lead is 40 s of
  // the simulated cluster, eight statistics periods, as the default lead is six at speed 1.
  const leadMs = 5000;
  const rec = await startRecord(sim, file, { NDBTOP_KEYFRAME_MS: '2000' });
  try {
    // The run starts longer than the lead after a keyframe that is not the file's start, so report plays it from
    // that keyframe (a fresh tracker picking the cluster up mid-file), not from the start: that is what is compared.
    await waitFor('a keyframe past the start, older than the lead', async () => {
      const k = (await indexRecording(file)).keyframes.find((kf) => kf.offset > 0);
      return k !== undefined && Date.now() - k.t > leadMs + 1000;
    }, 90_000);
    sim.marks.attach(oneRun(sim, httpRunMarker({ url: rec.url })));
    const done = await waitFor('the flexAsynch run to stop', async () => (await runs(rec.url)).find((r) => r.end !== null), 120_000);
    const live = (await (await fetch(new URL(`/api/runs/${done.id}`, rec.url))).json()) as JsonRun;
    await stopRecord(rec.child, 'SIGINT');
    assert.match(rec.output(), /SIGINT, closing/);
    assert.deepEqual(live.phases.map((p) => p.name), ['insert', 'read', 'update', 'delete']);
    assert.ok(offsetBefore(await indexRecording(file), done.start - leadMs) > 0, 'the run is played from a keyframe, not from the start');

    const lead = { NDBTOP_REPORT_LEAD_MS: String(leadMs) };
    // A generous deadline: a loaded machine (load 30+ on 2 cores) once took over 30 s to start and play this.
    const json = await runCli(['report', file, '--format', 'json'], lead, 120_000);
    assert.equal(json.code, 0, json.stderr);
    const reported = (JSON.parse(json.stdout) as { runs: JsonRun[] }).runs;
    assert.equal(reported.length, 1);
    assert.deepEqual(reported[0]?.summary, live.summary, 'the recording replays to the same summary');
    assert.deepEqual(reported[0]?.phases, live.phases);

    // ~200k operations/s per data node, one per transaction (the simulated cluster's rate, whatever the speed-up):
    // the run's median is on the plateau, which every phase keeps within 180k..230k per node.
    const perNode = (live.summary.transactions?.median ?? 0) / 2;
    assert.ok(perNode > 170_000 && perNode < 240_000, `median ${perNode} transactions/s per data node`);
    assert.ok(live.summary.perNode.every((n) => n.share !== null && Math.abs(n.share - 0.5) < 0.05), 'both nodes carry half');
    // Only collapse alerts: a loaded CI machine once starved the simulator's process past a poll's timeout, and the
    // management server lost then is an alert of its own, recorded and reported like any other.
    assert.deepEqual(live.summary.alerts.filter((a) => a.kind === 'throughput-collapse'), [], 'phase changes and the stop raise no collapse alert');

    const md = await runCli(['report', file], lead, 120_000);
    assert.equal(md.code, 0, md.stderr);
    const tx = live.summary.transactions;
    assert.ok(tx);
    assert.ok(md.stdout.includes(`| transactions | ${[tx.mean, tx.median, tx.p5, tx.p95, tx.min, tx.max].map(num).join(' | ')} |`), md.stdout);
    for (const p of live.phases) assert.ok(md.stdout.includes(`| ${p.name} | `), `phase ${p.name} in the Markdown`);
  } finally {
    rec.child.kill('SIGKILL');
    await sim.close();
  }
});

test('report on two recordings of the compression A/B shows B 25–30 % lower', async () => {
  const sim = await startSimulator({ scenario: 'compression-ab', dataNodes: 2, speed: 4, waitForMarker: true });
  const files = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')];
  try {
    for (const [i, file] of files.entries()) {
      const rec = await startRecord(sim, file);
      try {
        sim.marks.attach(oneRun(sim, httpRunMarker({ url: rec.url })));
        const done: Run = await waitFor(`run ${i + 1} to stop`, async () => (await runs(rec.url)).find((r) => r.end !== null), 120_000);
        assert.equal(done.tags.compress, i === 0 ? 'off' : 'on');
        await stopRecord(rec.child, i === 0 ? 'SIGTERM' : 'SIGINT');
      } finally {
        rec.child.kill('SIGKILL');
      }
    }
    const json = await runCli(['report', ...files, '--align', 'measure', '--format', 'json']);
    assert.equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout) as { runs: JsonRun[]; comparison: Comparison };
    assert.deepEqual(report.runs.map((r) => r.name), ['compress=off', 'compress=on']);
    const tx = report.comparison.rows[0]?.ratios.find((r) => r.figure === 'transactions');
    assert.ok(tx?.ratio && tx.ratio >= 0.7 && tx.ratio <= 0.75, `B/A ${tx?.ratio}`);
    const md = await runCli(['report', ...files, '--align', 'measure']);
    assert.match(md.stdout, /\| compress=on \| −(2[5-9]|30) % \(/);
  } finally {
    await sim.close();
  }
});

test('record --duration exits 0 when the time is up, with every line flushed; --run makes the recording one run', async () => {
  const file = join(dir, 'short.jsonl');
  const r = await runCli(['record', '--out', file, '--duration', '3s', '--run', 'whole', '--tag', 'nodes=4', '--poll', '500'], {}, 60_000);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /SIMULATED[\s\S]*run run-1: whole[\s\S]*duration over, closing/);
  const report = await runCli(['report', file, '--run', 'whole', '--format', 'json']);
  assert.equal(report.code, 0, report.stderr);
  const [run] = (JSON.parse(report.stdout) as { runs: JsonRun[] }).runs;
  assert.ok(run && run.end !== null && run.end - run.start >= 2500, `the run spans the recording: ${JSON.stringify(run && [run.start, run.end])}`);
  assert.deepEqual(run.tags, { nodes: '4' });
  assert.equal(run.dataNodes, 4);
  const missing = await runCli(['report', file, '--run', 'nope']);
  assert.equal(missing.code, EXIT.NO_RUNS);
  assert.match(missing.stderr, /^ndbtop report: no run named nope in .*short\.jsonl \(runs: whole\)\n$/);
});

// Issue 24 item 8: both exited 1, the table's "a bug", and "No runs." ended without a newline.
test('report: a recording without runs and a file that is no recording get their own exit codes and whole lines', async () => {
  const file = join(dir, 'no-runs.jsonl');
  const r = await runCli(['record', '--out', file, '--duration', '2s', '--poll', '500'], {}, 60_000);
  assert.equal(r.code, 0, r.stderr);
  const md = await runCli(['report', file]);
  assert.equal(md.code, EXIT.NO_RUNS, md.stderr);
  assert.match(md.stdout, /\nNo runs\.\n$/);
  assert.match(md.stderr, /^ndbtop report: no runs in .*no-runs\.jsonl \(mark them with .*\)\n$/);
  const json = await runCli(['report', file, '--format', 'json']);
  assert.equal(json.code, EXIT.NO_RUNS);
  assert.deepEqual((JSON.parse(json.stdout) as { runs: unknown[] }).runs, []);

  const notRecording = join(dir, 'notes.txt');
  await writeFile(notRecording, 'just some notes\n');
  const bad = await runCli(['report', notRecording]);
  assert.equal(bad.code, EXIT.USAGE);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /^ndbtop: .*notes\.txt is not an ndbtop recording \(first line is not JSON\)\n$/);
  const replayed = await runCli(['replay', notRecording, '--port', '0']);
  assert.equal(replayed.code, EXIT.USAGE, replayed.stderr);
});

test('report: text quoted from a recording (a parse error shows part of a bad line) reaches the terminal escaped', async () => {
  const file = join(dir, 'escape.jsonl');
  await writeFile(file, '{"format":"ndbtop-recording","version":1,"createdAt":1,"engine":"x"}\n\x1b[2J\x1b[H\n');
  const r = await runCli(['report', file]);
  assert.match(r.stderr, /line 2 skipped: .*\\x1b\[2J/);
  const out = r.stderr + r.stdout;
  assert.ok(!out.includes('\x1b') && !out.includes('\x9b'), `no raw control character: ${JSON.stringify(r.stderr)}`);
});
