import type { Browser, Page } from 'playwright-core';
import type { ScenarioName } from '../../../native-mgm/sim/index.js';
import { GRID_NODES, screenshot, startStack, type Stack } from '../harness.js';
import { chooseWindow, readDom, readHistory, readIncidents, readSnapshot, readTruth } from './capture.js';
import type { Frame, Violation } from './frame.js';
import { INVARIANTS, knownBroken, type Invariant } from './invariants.js';
import { PushWatch } from './push-watch.js';
import { RoundTruth } from './round-truth.js';
import { SourceWatch } from './source-watch.js';

export interface OracleRun {
  scenario: ScenarioName;
  /** What reports and KNOWN_BROKEN call the run when it is more than the scenario (a fault planted in it); default: the scenario. */
  name?: string;
  dataNodes: number;
  /** Frames to take, one a second of wall time. */
  seconds: number;
  /** Simulated milliseconds per real one. */
  speed: number;
  /** The catalogue to check (default: all of it); a test plants a contradiction by passing its own. */
  invariants?: readonly Invariant[];
  /** Leave out the pairs KNOWN_BROKEN lists (npm test's short variant); false: check everything. */
  skipKnownBroken?: boolean;
  /** The views the frames go through in turn (default: nodes, restarts, throughput). */
  views?: readonly string[];
  /** Runs once the page shows the grid, before the first frame (a test breaks something here). */
  plant?: (stack: Stack, page: Page) => Promise<unknown>;
}

export interface Finding extends Violation {
  scenario: string;
  dataNodes: number;
  second: number;
  screenshot: string;
}

export interface OracleReport {
  frames: Frame[];
  findings: Finding[];
  /** Known-broken pairs that broke and were left out, with why. */
  leftOut: Array<{ invariant: string; reason: string; times: number }>;
}

/** Views the frames go through in turn: the grid (cards, headline), the restarts (rolling panel, phases), the chart. */
const VIEWS = ['nodes', 'restarts', 'throughput'] as const;
/** Each ETA is read under these windows in turn; the first one again last tells an ETA that moved by itself. */
const WINDOWS = ['1m', '5m', '1m'] as const;

export function describe(f: Finding): string {
  return `[oracle] ${f.scenario} @ ${f.dataNodes} data nodes, second ${f.second}: ${f.invariant}\n  one says:   ${f.said}\n  other says: ${f.against}\n  screenshot: ${f.screenshot}`;
}

async function takeFrame(page: Page, stack: Stack, run: OracleRun, second: number, rounds: RoundTruth | null, source: SourceWatch | null, pushes: PushWatch): Promise<Frame> {
  const views = run.views ?? VIEWS;
  const view = views[second % views.length] ?? 'nodes';
  // The view renders after the hash changes: read it once it is mounted and painted, not the one before.
  await page.evaluate(`location.hash = '#/${view}'`);
  await page.waitForSelector(`main[data-view="${view}"]`, { timeout: 5000 }).catch(() => undefined);
  if (view === 'nodes') await page.waitForSelector(GRID_NODES, { timeout: 5000 }).catch(() => undefined);
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
  // The chart draws a few frames after its view shows: wait for its lines (a while), not for ever.
  if (view === 'throughput') await page.waitForSelector('[data-testid="throughput-chart"] path.recharts-line-curve', { timeout: 3000 }).catch(() => undefined);
  const [before, incidentsBefore] = await Promise.all([readSnapshot(stack), readIncidents(stack)]);
  const dom = await readDom(page);
  const [after, incidentsAfter] = await Promise.all([readSnapshot(stack), readIncidents(stack)]);
  const history = (await readHistory(stack)).entries;
  const mgmdsUp = stack.simulator.mgmds.filter((m) => m.running).length;
  const truth = { ...readTruth(stack, mgmdsUp), roundFinish: rounds?.predictedFinish() ?? null, ...source?.truth() };
  const frame: Frame = { scenario: run.name ?? run.scenario, dataNodes: run.dataNodes, second, at: Date.now(), dom, before, after, history, truth, incidents: { before: incidentsBefore, after: incidentsAfter }, pushedBackups: pushes.takeBackups() };
  if (view === 'restarts' && dom.eta) {
    frame.etaByWindow = [];
    for (const window of WINDOWS) {
      await chooseWindow(page, window);
      frame.etaByWindow.push({ window, eta: (await readDom(page)).eta });
    }
  }
  return frame;
}

/** One scenario, one page, one frame a second, every invariant on every frame; the stack is closed whatever happens. */
export async function runOracle(browser: Browser, staticDir: string, run: OracleRun): Promise<OracleReport> {
  const catalogue = run.invariants ?? INVARIANTS;
  let rounds: RoundTruth | null = null;
  let source: SourceWatch | null = null;
  const stack = await startStack(staticDir, {
    simulator: { scenario: run.scenario, dataNodes: run.dataNodes, speed: run.speed, ...(run.scenario === 'mgmd-failover' ? { mgmNodes: 2 } : {}) },
    memoryRefreshMs: 1000,
  }, (engine) => {
    // Watched from before the scenario's first restart (it begins once the engine reads its status).
    if (run.scenario === 'rolling-restart' && engine.simulator) rounds = new RoundTruth(engine.simulator);
    if (engine.simulator) source = new SourceWatch(engine.simulator);
  });
  const pushes = new PushWatch(stack.engine);
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const report: OracleReport = { frames: [], findings: [], leftOut: [] };
  try {
    await page.goto(stack.url);
    await page.waitForSelector(GRID_NODES, { timeout: 60_000 });
    await run.plant?.(stack, page);
    for (let second = 0; second < run.seconds; second++) {
      const started = Date.now();
      const frame = await takeFrame(page, stack, run, second, rounds, source, pushes);
      let shot: string | null = null;
      for (const invariant of catalogue) {
        const broken = invariant.check(frame, report.frames);
        if (broken.length === 0) continue;
        const reason = run.skipKnownBroken === false ? null : knownBroken(frame.scenario, run.dataNodes, invariant.id);
        if (reason !== null) {
          const entry = report.leftOut.find((l) => l.invariant === invariant.id);
          if (entry) entry.times += 1;
          else report.leftOut.push({ invariant: invariant.id, reason, times: 1 });
          continue;
        }
        shot ??= await screenshot(page, `oracle-${frame.scenario}-${run.dataNodes}-${second}-${Date.now()}`);
        for (const v of broken) {
          const finding: Finding = { ...v, scenario: frame.scenario, dataNodes: run.dataNodes, second, screenshot: shot };
          report.findings.push(finding);
          console.log(describe(finding));
        }
      }
      report.frames.push(frame);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (Date.now() - started))));
    }
    const kinds = [...new Set(report.frames.flatMap((f) => f.after.alerts.map((a) => `${a.kind}${a.resolvedAt === null ? '' : ' (resolved)'}`)))];
    console.log(`[oracle] ${run.name ?? run.scenario} @ ${run.dataNodes}: ${report.frames.length} frames, ${report.findings.length} broken; alerts seen: ${kinds.join(', ') || 'none'}`);
    for (const l of report.leftOut) console.log(`[oracle] ${run.name ?? run.scenario} @ ${run.dataNodes}: known broken, left out ${l.times}×: ${l.invariant} (${l.reason})`);
    return report;
  } finally {
    pushes.close();
    await page.close();
    await stack.close();
  }
}
