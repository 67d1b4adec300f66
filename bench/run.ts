import { buildRenderer } from '../renderer/e2e/harness.js';
import { benchBareLoad } from './renderer/bare-load.js';
import { benchCli } from './cli.bench.js';
import { benchEngine } from './engine.bench.js';
import { benchMetrics } from './metrics.bench.js';
import { benchNativeMgm } from './native-mgm.bench.js';
import { benchNdbinfo } from './ndbinfo.bench.js';
import { benchRecording, benchReport } from './recording.bench.js';
import { benchSqlFlood } from './sql-flood.bench.js';
import { coldFirstPaint } from './renderer/cold-paint.js';
import { profileRenderer } from './renderer/profile.js';
import { benchResponsiveness } from './renderer/responsiveness.js';
import { benchRenderer } from './renderer/run.js';
import { benchThreads, profileThreads } from './renderer/threads.js';

/**
 * `npm run bench`: figures measured side by side in one run and printed as ratios; never pass/fail, since
 * these machines are shared and noisy. Pass part names (native-mgm, cli, engine, metrics, recording, report, ndbinfo, renderer, responsiveness, bare-load, threads) to run
 * only those; `sql-flood` (a hostile SQL node's million-row answers; needs `npm run build`), `profile` (long tasks attributed), `threads-profile` and `cold-paint` (the renderer part's cold first paint alone) run only when named.
 */
const parts: Record<string, () => Promise<void>> = {
  'native-mgm': benchNativeMgm,
  cli: benchCli,
  engine: benchEngine,
  metrics: benchMetrics,
  recording: benchRecording,
  report: async () => void (await benchReport()),
  ndbinfo: benchNdbinfo,
  renderer: benchRenderer,
  responsiveness: benchResponsiveness,
  'bare-load': benchBareLoad,
  threads: benchThreads,
};
/** The renderer part's first figure alone (its hops), on a build of its own. */
async function coldPaintOnly(): Promise<void> {
  console.log('== renderer cold first paint');
  const built = await buildRenderer();
  try {
    await coldFirstPaint(built.dir);
  } finally {
    await built.remove();
  }
}
/** Diagnostics run only when named. */
const onRequest: Record<string, () => Promise<void>> = { 'sql-flood': benchSqlFlood, profile: profileRenderer, 'cold-paint': coldPaintOnly, 'threads-profile': profileThreads };
const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(parts)) {
  if (wanted.length === 0 || wanted.includes(name)) await run();
}
for (const [name, run] of Object.entries(onRequest)) {
  if (wanted.includes(name)) await run();
}
