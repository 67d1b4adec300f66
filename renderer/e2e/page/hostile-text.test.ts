import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { visibleLine } from '../../../electron/contract/page-safe/outside-text.js';
import type { RunReports } from '../../../electron/contract/schemas/runs.js';
import type { ClusterSnapshot } from '../../../electron/contract/schemas/snapshot.js';
import { spawnCli, runCli } from '../../../electron/cli/test/run-cli.js';
import { createEngine } from '../../../electron/engine/create-engine.js';
import { createReplayEngine } from '../../../electron/engine/recording/replay.js';
import { waitFor } from '../../../electron/engine/test/helpers.js';
import { startServeServer, type ServeServer } from '../../../electron/serve/serve-server.js';
import { parsePrometheusText } from '../../../electron/serve/test/prom-text.js';
import { ScriptedServer, mgmdScript } from '../../../native-mgm/client/test/scripted-server.js';
import { SPEC_REPLIES } from '../../../native-mgm/test/fixtures/spec-transcripts.js';
import { NO_BROWSER, browserSuite, waitInPage } from '../harness.js';

// Issue 35 item 3: text from outside (a recording, a management server, a serving ndbtop) through every output.

/**
 * Reads "node 3 OK" while it is made of other characters: "KO 3 edon" under a right-to-left override. The other
 * bidi controls follow, each able to reorder what comes after it on the line.
 */
const BIDI = '\u202eKO 3 edon\u202c\u202a\u202b\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u061c';
/** Clears the screen, writes the clipboard (OSC 52 … BEL), a one-byte CSI, a JavaScript line end, bidi controls and markup. */
const HOSTILE = `evil\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\x9b31m\u2028${BIDI}<img src=x onerror="window.__pwned=1">`;
const RUN = `run ${HOSTILE}\n# fake heading`;
const PHASE = `phase ${HOSTILE}`;
const TAG = `tag ${HOSTILE}\ud800`;
const CLUSTER = `cluster ${HOSTILE}`;
/** What a reader sees of HOSTILE on one line. */
const SHOWN = visibleLine(HOSTILE);
/** As a markdown report writes it: no HTML, link or image for the viewer it is opened in. */
const SHOWN_MD = SHOWN.replace(/[|[\]<>]/g, (c) => `\\${c}`);

/** Any character a terminal or a viewer would act on (LF and TAB are layout), bidi controls included. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

function noRaw(text: string, what: string): void {
  const m = RAW.exec(text);
  assert.ok(m === null, m ? `${what} carries U+${(m[0].codePointAt(0) ?? 0).toString(16).padStart(4, '0')} raw near ${JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + 40))}` : '');
}

const suite = browserSuite();
let dir: string;
let file: string;
let engine: Awaited<ReturnType<typeof createReplayEngine>>;
let server: ServeServer;

/**
 * A real recording of the simulator with a run, a phase and a tag, whose names (and the cluster's) are then made
 * hostile in the file: a shared recording can say anything, whatever the live engine accepts.
 */
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ndbtop-hostile-'));
  const recorded = join(dir, 'clean.ndjson');
  const live = await createEngine({ host: 'serve', pollIntervalMs: 500, recordFile: recorded, simulator: { scenario: 'steady', dataNodes: 2, speed: 4 } });
  try {
    await waitFor('load', async () => ((await live.handlers.getSnapshot({})).rates?.transactions ?? 0) > 0, 30_000);
    const run = await live.handlers.startRun({ name: 'XRUNX', tags: { k: 'XTAGX' }, phase: 'XPHASEX' });
    await waitFor('two samples', async () => ((await live.handlers.getRunReports({ runIds: [run.id], figure: 'transactions' })).runs[0]?.summary.transactions?.samples ?? 0) >= 2, 30_000);
    await live.handlers.stopRun({});
  } finally {
    await live.close();
  }
  const text = gunzipSync(await readFile(recorded)).toString('utf8');
  const hostile = [['"XRUNX"', RUN], ['"XPHASEX"', PHASE], ['"XTAGX"', TAG], ['"Simulated cluster"', CLUSTER]].reduce((t, [from, to]) => t.replaceAll(from as string, JSON.stringify(to)), text);
  file = join(dir, 'hostile.ndjson');
  await writeFile(file, hostile);
  engine = await createReplayEngine({ file, speed: Infinity });
  await engine.finished;
  server = await startServeServer({ engine, staticDir: NO_BROWSER ? '/nonexistent' : suite().dir, host: '127.0.0.1', port: 0, readyWithinMs: 0 });
});

after(async () => {
  await server?.close();
  await engine?.close();
  await rm(dir, { recursive: true, force: true });
});

const get = async (path: string): Promise<string> => {
  const res = await fetch(new URL(path, server.url));
  assert.equal(res.status, 200, path);
  return res.text();
};

function checkMarkdown(md: string, what: string): void {
  noRaw(md, what);
  assert.ok(md.includes(`## run ${SHOWN_MD}\\x0a# fake heading`), `${what}: the run's name, on its heading's line:\n${md.slice(0, 400)}`);
  assert.ok(!md.split('\n').includes('# fake heading'), `${what}: a name makes no line of its own`);
  assert.ok(md.includes(`phase ${SHOWN_MD}`) && md.includes(`k=tag ${SHOWN_MD}`), `${what}: phase and tag shown`);
  assert.ok(!/(^|[^\\])<img/.test(md), `${what}: markup in a name is no HTML for a markdown viewer`);
}

function checkCsv(csv: string, what: string): void {
  noRaw(csv, what);
  // Quotes in a cell are doubled: compared with them undone.
  const rows = csv.trim().split('\n').map((r) => r.replaceAll('""', '"'));
  assert.ok(rows.slice(1).every((r) => r.startsWith('stats,') || r.startsWith('ratio,')), `${what}: every record on its own line`);
  assert.ok(rows.some((r) => r.includes(`run ${SHOWN}\\x0a# fake heading`) && r.includes(`phase ${SHOWN}`)), `${what}: names shown`);
}

function checkJson(json: string, what: string): void {
  noRaw(json, what);
  const report = JSON.parse(json) as Pick<RunReports, 'runs'>;
  const run = report.runs[0];
  assert.equal(run?.name, RUN, `${what}: the data itself is kept exactly`);
  assert.deepEqual(run.tags, { k: TAG });
  assert.equal(run.phases[0]?.name, PHASE);
}

test('ndbtop report: md, csv and json show hostile names without a control character; json keeps them exactly', { timeout: 120_000 }, async () => {
  for (const [format, check] of [['md', checkMarkdown], ['csv', checkCsv], ['json', checkJson]] as const) {
    const r = await runCli(['report', file, '--format', format], {}, 90_000);
    assert.equal(r.code, 0, r.stderr);
    check(r.stdout, `report --format ${format}`);
    noRaw(r.stderr, `report --format ${format} (stderr)`);
  }
  const none = await runCli(['report', file, '--run', 'no such run'], {}, 90_000);
  noRaw(none.stderr, 'report --run (the names it has)');
  assert.ok(none.stderr.includes(`runs: run ${SHOWN}`), none.stderr);
});

test('serve: /api/runs in every format, /api/snapshot and /metrics carry no control character', async () => {
  checkMarkdown(await get('/api/runs?format=md'), '/api/runs md');
  checkCsv(await get('/api/runs?format=csv'), '/api/runs csv');
  checkJson(await get('/api/runs?format=json'), '/api/runs json');
  const snapshot = await get('/api/snapshot');
  noRaw(snapshot, '/api/snapshot');
  const parsed = JSON.parse(snapshot) as ClusterSnapshot;
  assert.equal(parsed.name, CLUSTER, 'the snapshot keeps the name exactly');
  assert.equal(parsed.runs?.[0]?.name, RUN);
  // Where a name comes in, a control character is refused in words (outputs are safe regardless: the recording above).
  for (const body of [{ name: RUN }, { name: 'ok', tags: { k: TAG } }, { name: 'ok', phase: PHASE }]) {
    const refused = await fetch(new URL('/api/runs', server.url), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const answer = await refused.text();
    assert.equal(refused.status, 400, answer);
    assert.match(answer, /control character/);
    noRaw(answer, 'the refusal');
  }
  const metrics = await get('/metrics');
  noRaw(metrics, '/metrics');
  // The strict reader takes only the exposition's own escapes (\\, \", \n): `\x1b` written as such would fail it.
  const { samples } = parsePrometheusText(metrics);
  const clusters = new Set(samples.flatMap((s) => (s.labels.cluster === undefined ? [] : [s.labels.cluster])));
  assert.deepEqual([...clusters], [visibleLine(CLUSTER)], 'the cluster label, as a reader sees it');
});

test('the page shows hostile names as text: no control character, no markup', { skip: NO_BROWSER ?? false, timeout: 120_000 }, async () => {
  const page = await suite().browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    await page.goto(`${server.url}#/runs`);
    await waitInPage(page, `document.querySelector('[data-testid="run-row"]') !== null`, 60_000);
    const shown = (await page.evaluate(`({ text: document.body.innerText, all: document.body.textContent + document.title, titles: [...document.querySelectorAll('[title]')].map((e) => e.title).join(' '), pwned: window.__pwned ?? null, img: document.querySelector('img[src="x"]') !== null })`)) as { text: string; all: string; titles: string; pwned: unknown; img: boolean };
    noRaw(shown.all, 'the page');
    noRaw(shown.titles, 'the page (titles)');
    assert.ok(shown.text.includes(`run ${SHOWN}`), `the run's name shown: ${shown.text.slice(0, 600)}`);
    assert.ok(shown.text.includes(`cluster ${SHOWN}`), 'the cluster name shown');
    assert.equal(shown.img, false, 'markup in a name stays text');
    assert.equal(shown.pwned, null);
  } finally {
    await page.close();
  }
});

/** A management server whose node address, and a field of an event of a type no one knows, are hostile. */
async function hostileMgmd(): Promise<ScriptedServer> {
  const status = SPEC_REPLIES.getStatus.replace('node.2.address: 10.0.0.12', `node.2.address: 10.0.0.12${HOSTILE}`);
  return ScriptedServer.start(
    mgmdScript(1, (req, socket) => {
      if (req.command === 'get status') {
        socket.write(Buffer.from(status, 'utf8'));
        return { stall: true };
      }
      if (req.command === 'listen event') {
        socket.write(Buffer.from(`listen event\nresult: 0\n\nlog event reply\ntype=9999\ntime=0\nsource_nodeid=2\nwords=${HOSTILE}\n\n`, 'utf8'));
        return { stall: true };
      }
      return undefined;
    }),
  );
}

/** Stdout of a command that runs until interrupted, once it printed `until`; then it is interrupted. */
async function firstOutput(args: string[], until: RegExp): Promise<string> {
  const child = spawnCli(args);
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  try {
    await waitFor(`ndbtop ${args[0] ?? ''} output`, () => until.test(out), 30_000);
  } finally {
    child.kill('SIGINT');
    await once(child, 'close');
  }
  return out;
}

test('the CLI: show and events from a hostile management server, alerts and run from a hostile serving ndbtop', { timeout: 120_000 }, async () => {
  const mgmd = await hostileMgmd();
  const fake = await hostileServe();
  try {
    const c = `127.0.0.1:${mgmd.port}`;
    const show = await runCli(['show', '-c', c]);
    noRaw(show.stdout, 'show');
    assert.match(show.stdout, /10\.0\.0\.12evil\\x1b\[2J/);
    assert.ok(show.stdout.includes('\\u202eKO 3 edon\\u202c\\u202a'), `the override shown, not obeyed: ${show.stdout}`);
    const showJson = await runCli(['show', '--json', '-c', c]);
    noRaw(showJson.stdout, 'show --json');
    // The text of an unknown event names its type only; its fields are in the JSON, kept exactly.
    noRaw(await firstOutput(['events', '-c', c], /Unknown9999/), 'events');
    const events = await firstOutput(['events', '--json', '-c', c], /evil/);
    noRaw(events, 'events --json');
    const unknown = events.split('\n').map((l) => (l.includes('evil') ? (JSON.parse(l) as { raw: Record<string, string> }) : null)).find((e) => e !== null);
    assert.equal(unknown?.raw.words, HOSTILE);

    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/`;
    for (const args of [['alerts', '--history'], ['alerts', '--history', '--json'], ['run', 'start', 'x'], ['run', 'start', 'x', '--json'], ['run', 'stop', 'x']]) {
      const r = await runCli([...args, '--url', url]);
      noRaw(r.stdout + r.stderr, `ndbtop ${args.join(' ')}`);
      assert.ok((r.stdout + r.stderr).includes('evil\\'), `ndbtop ${args.join(' ')} shows what it was sent: ${r.stdout}${r.stderr}`);
    }
  } finally {
    await mgmd.close();
    fake.close();
  }
});

/** A "serving ndbtop" that answers with hostile JSON: C1 and U+2028 raw inside its strings, as JSON allows. */
async function hostileServe(): Promise<Server> {
  const alert = { id: HOSTILE, kind: 'node-down', severity: 'critical', nodeId: 2, message: HOSTILE, raisedAt: 1, clearedAt: null, durationMs: null, silencedBy: HOSTILE };
  const run = { id: HOSTILE, name: HOSTILE, tags: {}, start: 1, end: null, phases: [], source: HOSTILE };
  const sockets = new Set<Socket>();
  const fake = createServer((req, res) => {
    const stop = req.url?.includes('/stop') === true;
    res.writeHead(stop ? 409 : 200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(req.url?.includes('alerts') ? { entries: [alert], dropped: 0 } : stop ? { error: { code: 'CONFLICT', message: HOSTILE } } : run));
  });
  fake.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  fake.listen(0, '127.0.0.1');
  await once(fake, 'listening');
  const close = fake.close.bind(fake);
  return Object.assign(fake, {
    close: (cb?: (err?: Error) => void) => {
      for (const s of sockets) s.destroy();
      return close(cb);
    },
  });
}
