import { benchEngine } from './engine.bench.js';
import { benchMetrics } from './metrics.bench.js';
import { benchNativeMgm } from './native-mgm.bench.js';
import { profileRenderer } from './renderer/profile.js';
import { benchResponsiveness } from './renderer/responsiveness.js';
import { benchRenderer } from './renderer/run.js';

/**
 * `npm run bench`: figures measured side by side in one run and printed as ratios; never pass/fail, since
 * these machines are shared and noisy. Pass part names (native-mgm, engine, metrics, renderer, responsiveness) to run
 * only those; `profile` (long tasks attributed) runs only when named.
 */
const parts: Record<string, () => Promise<void>> = {
  'native-mgm': benchNativeMgm,
  engine: benchEngine,
  metrics: benchMetrics,
  renderer: benchRenderer,
  responsiveness: benchResponsiveness,
};
/** Diagnostics run only when named. */
const onRequest: Record<string, () => Promise<void>> = { profile: profileRenderer };
const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(parts)) {
  if (wanted.length === 0 || wanted.includes(name)) await run();
}
for (const [name, run] of Object.entries(onRequest)) {
  if (wanted.includes(name)) await run();
}
