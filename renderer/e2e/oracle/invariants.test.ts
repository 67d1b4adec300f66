import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClusterSnapshot, Incident, RollingRestart } from '../../../electron/contract/index.js';
import type { DomView, Fall, Frame } from './frame.js';
import { INVARIANTS, KNOWN_BROKEN, statedPercents } from './invariants.js';
import { alert, dataNode, dom, frame, incident, runningBackup, snapshot } from './test-frames.js';
import { formatDateTime } from '../../src/view-model/format.js';

function check(id: string, f: Frame, earlier: Frame[] = []): string[] {
  const invariant = INVARIANTS.find((i) => i.id === id);
  if (!invariant) throw new Error(`no invariant ${id}`);
  return invariant.check(f, earlier).map((v) => `${v.said} | ${v.against}`);
}

test('the catalogue: unique ids, each described; every known-broken pair names an invariant and a reason', () => {
  const ids = INVARIANTS.map((i) => i.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const i of INVARIANTS) assert.ok(i.description.length > 20, i.id);
  for (const [pair, list] of Object.entries(KNOWN_BROKEN)) {
    assert.match(pair, /^[a-z-]+@(\d+|\*)$/);
    for (const [id, reason] of Object.entries(list)) {
      assert.ok(ids.includes(id), `${pair}: ${id}`);
      assert.ok(reason.length > 10, `${pair}: ${id} says why`);
    }
  }
});

test('a healthy frame keeps every invariant', () => {
  const f = frame();
  for (const i of INVARIANTS) assert.deepEqual(i.check(f, [frame({ second: 2 })]), [], i.id);
});

test('node-status-agrees: a card against the engine, the rolling panel against Restart phases', () => {
  const starting = snapshot([dataNode(2, 'STARTING', 4), dataNode(3), dataNode(4), dataNode(5)]);
  assert.deepEqual(check('node-status-agrees', frame({ after: starting, before: starting, dom: dom({ cards: [{ nodeId: 2, status: 'STARTED', startPhase: 0, old: false }] }) })), [
    'node card 2: STARTED | engine snapshot: STARTING',
  ]);
  // A status that began in the last second may not be painted yet; one older than that must be.
  const justStarting = snapshot([{ ...dataNode(2, 'STARTING', 4), statusSince: 800 }, dataNode(3), dataNode(4), dataNode(5)]);
  assert.deepEqual(check('node-status-agrees', frame({ after: justStarting, before: justStarting, dom: dom({ cards: [{ nodeId: 2, status: 'NO_CONTACT', startPhase: 0, old: false }] }) })), []);
  // The status changed between the two engine reads (even through a third, briefly), or the page lags the engine by
  // less than a second: no contradiction.
  assert.deepEqual(check('node-status-agrees', frame({ before: snapshot(), after: starting, dom: dom({ cards: [{ nodeId: 2, status: 'NO_CONTACT', startPhase: 0, old: false }] }) })), []);
  assert.deepEqual(check('node-status-agrees', frame({ before: snapshot(), after: starting, dom: dom({ cards: [{ nodeId: 2, status: 'STARTED', startPhase: 0, old: false }] }) })), []);
  const lagging = frame({ after: starting, before: starting, dom: dom({ cards: [{ nodeId: 2, status: 'STARTED', startPhase: 0, old: false }] }) });
  assert.deepEqual(check('node-status-agrees', lagging, [frame()]), []);
  assert.equal(check('node-status-agrees', lagging, [frame({ after: starting, before: starting })]).length, 1);

  const panels = (status: string, startPhase: number, current: string, rollingState = 'running'): Frame =>
    frame({ dom: dom({ view: 'restarts', cards: [], rollingState, restarting: [{ nodeId: 13, status, startPhase, text: `node 13: ${status} ${startPhase}` }], phases: [{ nodeId: 13, current }] }) });
  // The case: phase 5 (copying data) beside "joining the cluster".
  assert.deepEqual(check('node-status-agrees', panels('STARTING', 4, 'join')), ['rolling restart panel: "node 13: STARTING 4" | Restart phases: node 13 join']);
  assert.deepEqual(check('node-status-agrees', panels('STARTING', 4, 'copy')), []);
  assert.deepEqual(check('node-status-agrees', panels('STARTING', 4, 'dictionary')), []);
  assert.deepEqual(check('node-status-agrees', panels('STARTING', 5, 'dictionary')), ['rolling restart panel: "node 13: STARTING 5" | Restart phases: node 13 dictionary']);
  assert.deepEqual(check('node-status-agrees', panels('STARTING', 2, 'join')), []);
  assert.deepEqual(check('node-status-agrees', panels('STARTED', 0, 'lcp')), ['rolling restart panel: "node 13: STARTED 0" | Restart phases: node 13 lcp']);
  // "node 5: waiting for a local checkpoint" beside "RESTARTING none".
  const none = frame({ dom: dom({ view: 'restarts', cards: [], rollingState: 'running', phases: [{ nodeId: 5, current: 'lcp' }] }) });
  assert.deepEqual(check('node-status-agrees', none), ['Restart phases: node 5 lcp | rolling restart panel: node 5 is not restarting']);
});

test('alert-states-present: a level alert that keeps its peak breaks it; one that states the present figure keeps it', () => {
  const fill = (percent: number) => ({ ...snapshot(), ndbinfoNodes: [{ nodeId: 2, stale: false, threads: null, redo: { at: 0, used: 0, total: 1, percent, logId: 0, logPart: 0, parts: 4 }, undo: null, sendBuffer: null, diskWrite: null, restart: null }] });
  const withAlert = (message: string, percent: number): Frame => {
    const s = { ...fill(percent), alerts: [alert({ kind: 'log-fill-critical', severity: 'critical', message })] };
    return frame({ before: s, after: s });
  };
  assert.deepEqual(check('alert-states-present', withAlert('Node 2: redo log 95 % full (≥ 90 %)', 2)), [
    'active alert (log-fill-critical): "Node 2: redo log 95 % full (≥ 90 %)" | node 2 now at 2.0 %',
  ]);
  // The same kept peak in the history and in a banner row folding every data node's alerts.
  const history = withAlert('Node 2: redo log peaked at 95 %, now 2 %', 2);
  history.history = [{ id: 'h', kind: 'log-fill-critical', severity: 'critical', nodeId: 2, message: 'Node 2: redo log 95 % full', raisedAt: 0, clearedAt: null, durationMs: null, silencedBy: null }];
  history.dom = dom({ banner: [{ severity: 'critical', kind: 'log-fill-critical', nodeId: null, text: 'redo log 95 % full on 4 of 4 data nodes' }] });
  assert.deepEqual(check('alert-states-present', history), [
    'alert history (log-fill-critical): "Node 2: redo log 95 % full" | node 2 now at 2.0 %',
    'banner row (log-fill-critical): "redo log 95 % full on 4 of 4 data nodes" | its data nodes now at 2.0 %',
  ]);
  assert.deepEqual(check('alert-states-present', withAlert('Node 2: redo log peaked at 95 %, now 2 % (≥ 90 %)', 2)), []);
  assert.deepEqual(check('alert-states-present', withAlert('Node 2: redo log 93 % full (≥ 90 %)', 95)), []);
  // A resolved alert says what was.
  const resolved = { ...fill(2), alerts: [alert({ kind: 'log-fill-critical', severity: 'critical', message: 'Node 2: redo log 95 % full', resolvedAt: 2000 })] };
  assert.deepEqual(check('alert-states-present', frame({ before: resolved, after: resolved })), []);
  const memory = snapshot([{ ...dataNode(2), memory: { data: { usedPages: 50, totalPages: 100, pageSizeBytes: 32768, percent: 50 }, index: null } }], [alert({ kind: 'memory-high', severity: 'warning', message: 'Node 2: DataMemory 85 % used (≥ 80 %)' })]);
  assert.equal(check('alert-states-present', frame({ before: memory, after: memory })).length, 1);
  assert.deepEqual(statedPercents('redo ≥ 90 % full, peaked at 95.5 %, now 1 %'), [95.5, 1]);
});

test('banner-most-severe: a warning on top of an active critical breaks it', () => {
  const s = snapshot(undefined, [alert({ kind: 'log-fill-high', severity: 'warning', message: 'redo' }), alert({ kind: 'mgmd-lost', severity: 'critical', message: 'Lost the management server', nodeId: null })]);
  const banner = (first: string) => dom({ banner: [{ severity: first, kind: 'x', nodeId: null, text: 'first row' }] });
  assert.deepEqual(check('banner-most-severe', frame({ before: s, after: s, dom: banner('warning') })), [
    'banner\'s first row: WARNING "first row" | engine: active CRITICAL "Lost the management server"',
  ]);
  assert.deepEqual(check('banner-most-severe', frame({ before: s, after: s, dom: banner('critical') })), []);
  // The critical came between the reads: the page had no chance to show it yet.
  assert.deepEqual(check('banner-most-severe', frame({ before: snapshot(undefined, [alert({ kind: 'log-fill-high', severity: 'warning', message: 'redo' })]), after: s, dom: banner('warning') })), []);
});

test('lost-source-last-seen: live-looking figures once the management server is lost, or of a node out of contact', () => {
  const lost = { ...snapshot(), connection: { ...snapshot().connection, status: 'reconnecting' as const } };
  const shown = dom({ figures: [{ where: 'chart legend', text: '5.28k/s', stale: false }] });
  const broken = check('lost-source-last-seen', frame({ before: lost, after: lost, dom: shown }));
  assert.equal(broken.length, 5, broken.join('\n'));
  assert.ok(broken.includes('chart legend "5.28k/s" looks current | engine: management server reconnecting'));
  const greyed = dom({ cards: dom().cards.map((c) => ({ ...c, old: true })), figures: [{ where: 'chart legend', text: '5.28k/s', stale: true }] });
  assert.deepEqual(check('lost-source-last-seen', frame({ before: lost, after: lost, dom: greyed })), []);
  const away = snapshot([dataNode(2), dataNode(3, 'NO_CONTACT'), dataNode(4), dataNode(5)]);
  assert.deepEqual(check('lost-source-last-seen', frame({ before: away, after: away }), [frame({ second: 2, before: away, after: away })]), ['node card 3 shows its figures as current | engine: node 3 NO_CONTACT']);
  // The first frame: the node may have gone away within the page's lag.
  assert.deepEqual(check('lost-source-last-seen', frame({ before: away, after: away })), []);
});

test('eta-independent-of-window: the ETA must read the same under every chart window', () => {
  const reads = (...etas: number[]) => frame({ etaByWindow: etas.map((e, i) => ({ window: ['1m', '5m', '1m'][i] ?? '1h', eta: { min: e, max: e } })) });
  assert.deepEqual(check('eta-independent-of-window', reads(5000, 5000, 5000)), []);
  assert.deepEqual(check('eta-independent-of-window', reads(5000, 9000, 5000)), ['ETA under the 1m window: 5000–5000 | ETA under the 5m window: 9000–9000']);
  // It moved between the first read and the last: a restart finished meanwhile, not the window.
  assert.deepEqual(check('eta-independent-of-window', reads(5000, 9000, 9000)), []);
});

test('chart-breaks-at-gaps: a line drawn across seconds without figures', () => {
  const chart = (times: number[], windowMs = 60_000) => frame({ dom: dom({ chart: { windowMs, lines: [{ series: 'reads', times }] } }) });
  assert.deepEqual(check('chart-breaks-at-gaps', chart([0, 1000, 2000, 3000])), []);
  assert.deepEqual(check('chart-breaks-at-gaps', chart([0, 1000, 11_000, 12_000])), ['throughput chart: reads drawn unbroken from 00:00:01 to 00:00:11 | the engine samples every second: 9 s between have no figure']);
  // An hour's window draws buckets.
  assert.deepEqual(check('chart-breaks-at-gaps', chart([0, 1000, 11_000], 3_600_000)), []);
});

test('totals-are-sums: a node group live count that is not its STARTED nodes', () => {
  const s = snapshot();
  const wrong = { ...s, nodeGroups: s.nodeGroups.map((g) => (g.nodeGroup === 1 ? { ...g, live: 1 } : g)) };
  assert.deepEqual(check('totals-are-sums', frame({ before: wrong, after: wrong })), ['node group 1: 1 live | its nodes: 2 STARTED']);
  const coverage = { ...s, rates: { windowMs: 1000, transactions: 1, commits: 1, reads: 1, simpleReads: 0, writes: 0, scans: 0, rangeScans: 0, aborts: 0, operations: 0, concurrentOps: 0, contributing: { nodes: 3, of: 5 } } };
  assert.deepEqual(check('totals-are-sums', frame({ before: coverage, after: coverage })), ['throughput summed over 3 of 5 data nodes | the cluster has 4 data nodes']);
});

test('numbers-have-units: a bare figure breaks it; units, clock times and node ids do not', () => {
  const figures = (...texts: string[]) => frame({ dom: dom({ figures: texts.map((text) => ({ where: 'x', text, stale: false })) }) });
  assert.deepEqual(check('numbers-have-units', figures('5.28k/s', '12 %', '1.5 MiB', '760k transactions/s', 'last seen 12:04:05 (3 s ago)', 'node 3: 40 %')), []);
  assert.deepEqual(check('numbers-have-units', figures('5.28k')), ['x: "5.28k" | "5.28" has no unit after it']);
});

test('eta-contains-finish: the first ETA shown must contain the time the round ended', () => {
  const round = (complete: boolean, to: number | null): RollingRestart => ({
    source: 'observed', startedAt: 1000, restarts: [{ nodeId: 2, from: 1000, to }], done: complete ? [2] : [], inProgress: complete ? [] : [2], remaining: [], next: null, complete, paceMs: null, etaAt: null, etaRange: null, etaBasis: 0,
  });
  const at = (second: number, r: RollingRestart, eta: Frame['dom']['eta']): Frame => {
    const s = { ...snapshot(), rollingRestart: r };
    return frame({ second, before: s, after: s, dom: dom({ eta }) });
  };
  const running = [at(1, round(false, null), { min: 50_000, max: 70_000 }), at(2, round(false, null), { min: 60_000, max: 60_000 })];
  assert.deepEqual(check('eta-contains-finish', at(3, round(true, 65_000), null), running), []);
  const short = [at(1, round(false, null), { min: 50_000, max: 50_000 })];
  assert.deepEqual(check('eta-contains-finish', at(3, round(true, 65_000), null), short), ['first ETA shown (second 1): 00:00:50 | the round finished at 00:01:05']);
});

test('eta-contains-finish in a short run: the first ETA is held to the simulator\'s own finish of the round, once', () => {
  const running: RollingRestart = {
    source: 'observed', startedAt: 1000, restarts: [{ nodeId: 2, from: 1000, to: 9000 }], done: [2], inProgress: [3], remaining: [4, 5], next: 4, complete: false, paceMs: null, etaAt: null, etaRange: null, etaBasis: 1,
  };
  const at = (second: number, eta: Frame['dom']['eta'], roundFinish: number | null): Frame => {
    const s = { ...snapshot(), rollingRestart: running };
    return frame({ second, at: second * 1000, before: s, after: s, dom: dom({ eta }), truth: { nodes: [], mgmdsUp: 1, roundFinish } });
  };
  const first = at(1, { min: 50_000, max: 70_000 }, null);
  // The simulator says the round ends at 01:05: inside the first ETA.
  assert.deepEqual(check('eta-contains-finish', at(2, { min: 60_000, max: 60_000 }, 65_000), [first]), []);
  // At 01:30 (past the range and its slack): broken, said once, when the finish is first known.
  const late = at(2, { min: 60_000, max: 60_000 }, 90_000);
  assert.deepEqual(check('eta-contains-finish', late, [first]), ["first ETA shown (second 1): 00:00:50–00:01:10 | the simulator's timings finish the round at 00:01:30"]);
  assert.deepEqual(check('eta-contains-finish', at(3, { min: 60_000, max: 60_000 }, 90_000), [first, late]), []);
});

test('numbers-have-units over every visible text: a bare count breaks it; ids, id lists, key hints and counts stated as such do not', () => {
  const texts = (...list: Array<[string, string, string?]>) => frame({ dom: dom({ texts: list.map(([where, text, context]) => ({ where, text, context: context ?? text })) }) });
  assert.deepEqual(check('numbers-have-units', texts(
    ['view-io', '0 Redo & transport'],
    ['alert-group', 'full within 10 min at this rate on 3 of 4 data nodes: 3, 4, 5'],
    ['rolling-restart', 'No restart in the last 10 minutes: every data node has stayed up.'],
    ['event-text', 'ndbtop connected to management server 1 at 127.0.0.1:1186 (mysql-8.4.3 ndb-8.4.3)'],
    ['ack-all', 'Acknowledge all 2 alerts'],
    ['node-3', '3'],
    ['headline-aborts', '12.8', '12.8 aborts/s'],
    ['BUTTON', '15m'],
    ['nodegroup-4', '2/2'],
    ['restart-times-label', 'Restart times (done: nodes 2–4)'],
    ['node-2', 'copying the dictionary · phase 4 of 9 · 2 s · no estimate yet'],
    ['event-text', 'Node 3: forced shutdown (restart), error 6000, signal 6'],
  )), []);
  assert.deepEqual(check('numbers-have-units', texts(['ack-all', 'Acknowledge all (2)'], ['alert-group', 'Acknowledge 3'], ['headline-aborts', '12.8', '12.8 per'], ['event-text', 'terror 12 at once'])), [
    'ack-all: "Acknowledge all (2)" | "2" has no unit after it',
    'alert-group: "Acknowledge 3" | "3" has no unit after it',
    'headline-aborts: "12.8" | "12.8" has no unit after it',
    'event-text: "terror 12 at once" | "12" has no unit after it',
  ]);
});

test('engine-matches-source: a status the simulator held over a second must be the engine\'s', () => {
  const truth = (status: string) => ({ nodes: [{ nodeId: 2, status, startPhase: 0 }], mgmdsUp: 1 });
  const f = frame({ truth: truth('NO_CONTACT') });
  assert.deepEqual(check('engine-matches-source', f, [frame({ truth: truth('NO_CONTACT') })]), ['engine snapshot: node 2 STARTED | simulator: node 2 NO_CONTACT for over a second']);
  // Just changed in the model: the engine has its poll to see it.
  assert.deepEqual(check('engine-matches-source', f, [frame({ truth: truth('STARTED') })]), []);
});

test('backup-shows-engine: each figure of the Backups view read back against the engine\'s backup', () => {
  const s = { ...snapshot(), backups: { running: runningBackup(), last: [{ backupId: 0, startedAt: 0, endedAt: 20_000, records: 5000, bytes: 2 ** 30, outcome: 'completed' as const }] } };
  const shown = (over: Partial<NonNullable<NonNullable<DomView['backups']>['running']>> = {}, past = [{ backupId: 0, outcome: 'completed', took: '20 s', size: '1.0 GiB', records: '5,000', rate: '53.7 MB/s' }]): Frame =>
    frame({
      before: s,
      after: s,
      dom: dom({
        view: 'backups',
        backups: {
          running: { backupId: 1, written: '100 MiB of about 400 MiB · 1,000 records', rate: '50.0 MB/s', eta: 'ends in 4 s – 6 s', etaFrom: 14_000, etaTo: 16_000, nodes: [{ nodeId: 2, written: '100 MiB', of: '400 MiB', records: '1,000' }], ...over },
          past,
        },
      }),
    });
  const earlier = [frame({ second: 2, before: s, after: s })];
  const at = (f: Frame): string[] => check('backup-shows-engine', f, earlier);
  assert.deepEqual(at(shown()), []);
  // The first frame: no earlier read bounds how far the page lags.
  assert.deepEqual(check('backup-shows-engine', shown({ rate: '5.0 MB/s' })), []);
  assert.deepEqual(at(shown({ nodes: [{ nodeId: 2, written: '200 MiB', of: '400 MiB', records: '1,000' }] })), [
    'Backups view: node 2: 200 MiB of 400 MiB, 1,000 records | engine: 104857600 B of 419430400 B, 1000 records',
  ]);
  assert.deepEqual(at(shown({ rate: '50.0 MiB/s' })), ['Backups view: rate "50.0 MiB/s" | engine: 50000000 B/s']);
  assert.deepEqual(at(shown({ written: '100 MiB of about 400 MiB · 2,000 records' })), ['Backups view: written "100 MiB of about 400 MiB · 2,000 records" | engine: 1000 records']);
  assert.equal(at(shown({ eta: 'ends in 40 s – 60 s' })).length, 1);
  // An ETA where the engine has none, and none where it has one.
  const noEta = { ...s, backups: { ...s.backups, running: runningBackup({ etaRangeMs: null, etaMs: null }) } };
  assert.equal(check('backup-shows-engine', { ...shown(), before: noEta, after: noEta }, [frame({ before: noEta, after: noEta })]).length, 1);
  assert.equal(at(shown({ eta: 'end not known yet: a second progress report gives the rate', etaFrom: null, etaTo: null })).length, 1);
  assert.deepEqual(at(shown({}, [{ backupId: 0, outcome: 'completed', took: '2 s', size: '1.0 GiB', records: '5,000', rate: '53.7 MB/s' }])), [
    'Backups view: past backup 0: completed, took 2 s, 1.0 GiB, 5,000 records, 53.7 MB/s | engine: completed, took 20000 ms, 1073741824 B, 5000 records',
  ]);
  // A figure between two reads of the engine (a report came between them) is one the page may have been pushed.
  const later = { ...s, backups: { ...s.backups, running: runningBackup({ nodes: [{ nodeId: 2, records: 3000, bytes: 300 * 2 ** 20, toBackupBytes: 400 * 2 ** 20, at: 10_900 }] }) } };
  const between = shown({ written: '200 MiB of about 400 MiB · 2,000 records', nodes: [{ nodeId: 2, written: '200 MiB', of: '400 MiB', records: '2,000' }] });
  assert.deepEqual(at({ ...between, after: later }).filter((v) => v.includes('node 2')), []);
  // A state the engine pushed and left again between the frames (no read saw it) is one the page may show; not another.
  const pushed = { ...s.backups, running: runningBackup({ bytesPerSec: 60_000_000, nodes: [{ nodeId: 2, records: 2000, bytes: 200 * 2 ** 20, toBackupBytes: 400 * 2 ** 20, at: 10_500 }] }) };
  const fromPush = shown({ rate: '60.0 MB/s', written: '200 MiB of about 400 MiB · 2,000 records', nodes: [{ nodeId: 2, written: '200 MiB', of: '400 MiB', records: '2,000' }] });
  const unheld = at(fromPush);
  assert.ok(unheld.some((v) => v.startsWith('Backups view: node 2: 200 MiB')) && unheld.some((v) => v.startsWith('Backups view: rate')), 'no read holds it');
  assert.deepEqual(at({ ...fromPush, pushedBackups: [pushed] }), []);
  const other = at({ ...fromPush, pushedBackups: [{ ...pushed, running: runningBackup({ bytesPerSec: 40_000_000 }) }] });
  assert.deepEqual(other.map((v) => v.split(' | ')[0]), unheld.map((v) => v.split(' | ')[0]), 'another push does not');
});

test('backup-matches-source: the engine\'s backup against what the simulator\'s nodes wrote, their rate and the sums', () => {
  // Node 2 writes 1 MB from 0 to 10 s (100 kB/s); the engine read 480 kB at 5 s.
  const truth = (over: Partial<NonNullable<Frame['truth']['backups']>> = {}) => ({ nodes: [], mgmdsUp: 1, backups: { running: [{ id: 1, startedAt: 0, endsAt: 10_300, rowBytes: 100, nodes: [{ nodeId: 2, shareBytes: 1e6, bytes: 600_000, records: 6000, writtenBy: 10_000 }] }], ended: [], ...over } });
  const engine = (bytes: number, bytesPerSec = 100_000) => ({ ...snapshot(), backups: { running: runningBackup({ startedAt: 0, nodes: [{ nodeId: 2, records: bytes / 100, bytes, at: 5000 }], bytesPerSec }), last: [] } });
  const at = (s: ClusterSnapshot, t = truth()) => frame({ at: 6000, before: s, after: s, truth: t });
  assert.deepEqual(check('backup-matches-source', at(engine(480_000))), []);
  assert.deepEqual(check('backup-matches-source', at(engine(900_000))), ['engine: node 2 had written 900000 B at 00:00:05 | simulator: 400000–505000 B in the second before']);
  assert.deepEqual(check('backup-matches-source', at(engine(480_000, 300_000))), ['engine: backup 1 writes 300000 B/s | simulator: its nodes\' disks write 100000 B/s']);
  // 5 s in, a rate may be off by the 10 % and the 250 ms an event's receipt may be late over those 5 s (5 %), no more.
  assert.deepEqual(check('backup-matches-source', at(engine(480_000, 114_000))), []);
  assert.deepEqual(check('backup-matches-source', at(engine(480_000, 116_000))), ['engine: backup 1 writes 116000 B/s | simulator: its nodes\' disks write 100000 B/s']);
  // Ended in the simulator 3 s before: the engine still has it running.
  assert.deepEqual(check('backup-matches-source', at(engine(480_000), truth({ running: [], ended: [{ id: 1, at: 3000, bytes: 1e6, records: 10_000 }] }))), ['engine: backup 1 still running | simulator: it ended at 00:00:03']);
  const past = { ...snapshot(), backups: { running: null, last: [{ backupId: 1, startedAt: 0, endedAt: 3100, records: 10_000, bytes: 999_000, outcome: 'completed' as const }] } };
  assert.deepEqual(check('backup-matches-source', at(past, truth({ running: [], ended: [{ id: 1, at: 3000, bytes: 1e6, records: 10_000 }] }))), [
    'engine: backup 1 completed at 00:00:03: 999000 B, 10000 records | simulator: completed at 00:00:03: 1000000 B, 10000 records',
  ]);
  // The simulator has written for 6 s; the engine says none runs.
  assert.deepEqual(check('backup-matches-source', at(snapshot())), ['engine: no backup running | simulator: backup 1 writing since 00:00:00']);
});

test('backup-eta-contains-end: the ETA range the Backups view shows must hold the simulator\'s end', () => {
  const shown = (endsAt: number) =>
    frame({
      at: 1000,
      dom: dom({ backups: { running: { backupId: 1, written: '', rate: '', eta: 'ends in 13 s – 15 s', etaFrom: 14_000, etaTo: 16_000, nodes: [] }, past: [] } }),
      truth: { nodes: [], mgmdsUp: 1, backups: { running: [{ id: 1, startedAt: 0, endsAt, rowBytes: 100, nodes: [] }], ended: [] } },
    });
  assert.deepEqual(check('backup-eta-contains-end', shown(15_000)), []);
  assert.deepEqual(check('backup-eta-contains-end', shown(30_000)), ['Backups view: backup 1 "ends in 13 s – 15 s" (00:00:14–00:00:16) | simulator: it ends at 00:00:30']);
});

test('incidents-show-engine: the list and the opened incident against the engine\'s incidents', () => {
  const shown = (rows: NonNullable<DomView['incidents']>['rows'], detail: Partial<NonNullable<NonNullable<DomView['incidents']>['detail']>> = {}): Frame =>
    frame({
      incidents: { before: [incident()], after: [incident()] },
      dom: dom({
        incidents: {
          rows,
          detail: { id: 'inc-1000-n3', kind: 'error', restart: 'back after 6 s', marks: [{ offset: '+2', lane: 'phase', text: 'restart began' }, { offset: '+8', lane: 'phase', text: 'back STARTED' }], figures: [{ nodeId: 3, name: 'DataMemory used', last: '30 %', peak: '31 %' }], ...detail },
        },
      }),
    });
  const row = { id: 'inc-1000-n3', kind: 'error', nodes: 'node 3', restart: 'back after 6 s' };
  assert.deepEqual(check('incidents-show-engine', shown([row])), []);
  // The lag: "not restarting (yet)" while the engine has the node back.
  assert.deepEqual(check('incidents-show-engine', shown([{ ...row, restart: 'not restarting (yet)' }])), [
    'Incidents view lists: inc-1000-n3 error node 3, not restarting (yet) | engine: inc-1000-n3 error nodes 3 (inc-1000-n3: restart began 00:00:03 (+2.0 s), back 00:00:09 (+8.0 s) after 6 s)',
  ]);
  assert.equal(check('incidents-show-engine', shown([{ ...row, nodes: 'node 4' }])).length, 1);
  // Its restart began between the reads: the page may show it as it was meanwhile.
  const moving = shown([{ ...row, restart: 'not restarting (yet)' }]);
  moving.incidents = { before: [incident({ restart: { startedAt: null, backAt: null, totalSecs: null, usualSecs: null, phases: [] } })], after: [incident()] };
  assert.deepEqual(check('incidents-show-engine', moving), []);
  // Not back yet: the page writes the restart's start as the rest of the view does (local date and time).
  const out = incident({ restart: { startedAt: 3000, backAt: null, totalSecs: null, usualSecs: null, phases: [] } });
  const notBack = (restart: string): Frame => {
    const f = shown([{ ...row, restart }], { restart, marks: [{ offset: '+2', lane: 'phase', text: 'restart began' }] });
    f.incidents = { before: [out], after: [out] };
    return f;
  };
  assert.deepEqual(check('incidents-show-engine', notBack(`restarting since ${formatDateTime(3000)}, not back yet`)), []);
  assert.equal(check('incidents-show-engine', notBack(`restarting since ${new Date(3000).toISOString()}, not back yet`)).length, 2, 'ISO, unlike the rest of the view: in the list and the opened incident');
  assert.equal(check('incidents-show-engine', notBack(`restarting since ${formatDateTime(4000)}, not back yet`)).length, 2, 'another time');
  assert.equal(check('incidents-show-engine', shown([])).length, 1);
  assert.equal(check('incidents-show-engine', shown([row], { figures: [{ nodeId: 3, name: 'DataMemory used', last: '30', peak: '31 %' }] })).length, 1);
  assert.equal(check('incidents-show-engine', shown([row], { marks: [{ offset: '+2', lane: 'phase', text: 'restart began' }, { offset: '+12', lane: 'phase', text: 'back STARTED' }] })).length, 1);
  const phased = shown([row], { marks: [{ offset: '+2', lane: 'phase', text: 'restart began' }, { offset: '+2', lane: 'phase', text: 'start phase 1: 2 s (usual 1.5 s)' }, { offset: '+8', lane: 'phase', text: 'back STARTED' }] });
  const withPhase = incident({ restart: { ...incident().restart, phases: [{ name: 'start phase 1', secs: 2, usualSecs: 1.5 }] } });
  phased.incidents = { before: [withPhase], after: [withPhase] };
  assert.deepEqual(check('incidents-show-engine', phased), []);
  // A restart phase the engine did not time.
  assert.equal(check('incidents-show-engine', shown([row], { marks: [{ offset: '+2', lane: 'phase', text: 'restart began' }, { offset: '+2', lane: 'phase', text: 'start phase 1: 2 s' }, { offset: '+8', lane: 'phase', text: 'back STARTED' }] })).length, 1);
});

test('incident-cause-matches-scenario: the cause named is the one the simulator played', () => {
  const f = (kind: Incident['cause']['kind'], scenario = 'heartbeat-failure') => frame({ scenario, incidents: { before: [], after: [incident({ cause: { kind, text: 'x', evidence: [] } })] } });
  assert.deepEqual(check('incident-cause-matches-scenario', f('heartbeat')), []);
  assert.deepEqual(check('incident-cause-matches-scenario', f('error')), ['engine: incident inc-1000-n3 (nodes 3): error: "x" | simulator: the heartbeat-failure scenario (heartbeat)']);
  assert.deepEqual(check('incident-cause-matches-scenario', f('error', 'node-failure')), []);
  // A scenario that plays no failure names none.
  assert.deepEqual(check('incident-cause-matches-scenario', f('error', 'steady')), []);
});

test('incident-nodes-match-source: an incident\'s nodes are the ones the simulator took down, and every fall has one', () => {
  const falls: Fall[] = [{ nodeId: 3, downAt: 700, startingAt: 2900, upAt: 9000 }];
  const f = (incidents: Incident[], more: typeof falls = []) => frame({ at: 12_000, incidents: { before: incidents, after: incidents }, truth: { nodes: [], mgmdsUp: 1, falls: [...falls, ...more] } });
  assert.deepEqual(check('incident-nodes-match-source', f([incident()])), []);
  // The issue's case: node 4 fell 8 s later, after node 3 was back, and was put in node 3's incident.
  assert.deepEqual(check('incident-nodes-match-source', f([incident({ nodeIds: [3, 4] })], [{ nodeId: 4, downAt: 9000, startingAt: null, upAt: null }])), [
    'engine: incident inc-1000-n3 has node 4, noticed 00:00:01 | simulator: node 4 left STARTED at 00:00:09',
    'simulator: node 4 left STARTED at 00:00:09 | engine: inc-1000-n3 noticed 00:00:01',
  ]);
  assert.deepEqual(check('incident-nodes-match-source', f([])), ['simulator: node 3 left STARTED at 00:00:00 | engine: no incident has node 3']);
});

test('incident-restart-matches-source: the restart began and was back when the simulator\'s node was', () => {
  const f = (restart: Partial<Incident['restart']>, upAt: number | null = 9000) =>
    frame({ at: 12_000, incidents: { before: [], after: [incident({ restart: { ...incident().restart, ...restart } })] }, truth: { nodes: [], mgmdsUp: 1, falls: [{ nodeId: 3, downAt: 700, startingAt: 2900, upAt }] } });
  assert.deepEqual(check('incident-restart-matches-source', f({})), []);
  assert.equal(check('incident-restart-matches-source', f({ backAt: null, totalSecs: null })).length, 1);
  assert.equal(check('incident-restart-matches-source', f({ backAt: 5000 })).length, 1);
  assert.equal(check('incident-restart-matches-source', f({ startedAt: 6000 })).length, 1);
  // Back in the engine while the simulator's node still starts.
  assert.deepEqual(check('incident-restart-matches-source', f({}, null)), [
    'engine: incident inc-1000-n3 (nodes 3): restart began 00:00:03 (+2.0 s), back 00:00:09 (+8.0 s) after 6 s | simulator: node 3 starting 00:00:02, STARTED not yet',
  ]);
});

test('incident-began-after-return: a fall\'s story does not begin before its node was back from the previous one', () => {
  const falls = [{ nodeId: 3, downAt: -20_000, startingAt: -18_000, upAt: -10_000 }, { nodeId: 3, downAt: 700, startingAt: 2900, upAt: 9000 }];
  const f = (startedAt: number) => frame({ at: 12_000, incidents: { before: [], after: [incident({ startedAt })] }, truth: { nodes: [], mgmdsUp: 1, falls } });
  assert.deepEqual(check('incident-began-after-return', f(-2000)), []);
  // The case: heartbeats missed before the previous fall counted as this one's first sign.
  assert.deepEqual(check('incident-began-after-return', f(-19_000)), ['engine: incident inc-1000-n3 (nodes 3) began 23:59:41: "Node 3 shut down after an error" | simulator: node 3 was back STARTED at 23:59:50 from its previous fall']);
});
