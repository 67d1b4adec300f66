import { BENCHMARK_PHASES } from '../workload/load-profile.js';
import type { Scenario } from './scenario.js';

/** Idle time between two benchmark runs. */
const BETWEEN_RUNS_MS = 15_000;

export const benchmark: Scenario = {
  name: 'benchmark',
  description: 'repeated benchmark runs: warmup, run at 1.2M reads/s across the cluster, cooldown, table dropped, idle pause',
  async run({ model, clock }) {
    const { warmupMs, runMs, cooldownMs } = BENCHMARK_PHASES;
    for (;;) {
      model.setLoad('benchmark');
      await clock.sleep(warmupMs + runMs + cooldownMs);
      // The benchmark drops its table: its writes in the cooldown delete only a few of the rows its run inserted.
      model.memory.dropTable();
      await clock.sleep(BETWEEN_RUNS_MS);
    }
  },
};
