import { describe, FAULTS } from '../electron/engine/test/faults/scenarios.js';

/**
 * `npm run faults [-- --freeze-seconds 30]`: injects each fault of issue 12 into a live engine and prints how
 * long until the connection state showed it and until both links were live again (budget for detection: 3 s,
 * the event stream's PING watchdog and the request timeout), and, where the command session moves to another
 * management server, how long the event stream took to follow it (budget: 3 s). Figures only; the same runs are asserted by
 * electron/engine/test/faults.test.ts with a shorter freeze.
 */
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
const options = { freezeMs: arg('--freeze-seconds', 30) * 1000, outageMs: arg('--outage-seconds', 5) * 1000, deadlineMs: 120_000 };
let failed = 0;
for (const [name, run] of Object.entries(FAULTS)) {
  try {
    console.log(describe(await run(options)));
  } catch (err) {
    failed += 1;
    console.log(`${name}: FAILED: ${err instanceof Error ? err.message : String(err)}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
