import { benchEngine } from './engine.bench.js';
import { benchMetrics } from './metrics.bench.js';
import { benchNativeMgm } from './native-mgm.bench.js';
import { benchRenderer } from './renderer/run.js';

/**
 * `npm run bench`: figures measured side by side in one run and printed as ratios; never pass/fail, since
 * these machines are shared and noisy. Pass part names (native-mgm, engine, metrics, renderer) to run only those.
 */
const parts: Record<string, () => Promise<void>> = { 'native-mgm': benchNativeMgm, engine: benchEngine, metrics: benchMetrics, renderer: benchRenderer };
const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(parts)) {
  if (wanted.length === 0 || wanted.includes(name)) await run();
}
