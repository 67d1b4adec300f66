/** Cluster-wide operation rates (per second) that the statistics engine turns into per-instance reports. */
export interface LoadRates {
  readsPerSec: number;
  writesPerSec: number;
  transPerSec: number;
  scansPerSec: number;
  rangeScansPerSec: number;
}

export interface LoadProfile {
  readonly name: string;
  /** Rates `elapsedMs` sim milliseconds after the profile was set. */
  ratesAt(elapsedMs: number): LoadRates;
  /**
   * What the clients are trying to run at that time, when it differs from what gets done (a collapse: the threads
   * keep their operations in flight while each takes far longer); it sets the concurrent-operations gauge.
   */
  offeredAt?(elapsedMs: number): LoadRates;
}

export const LOAD_PROFILE_NAMES = ['idle', 'steady', 'ramp', 'benchmark'] as const;
export type LoadProfileName = (typeof LOAD_PROFILE_NAMES)[number];

const ZERO: LoadRates = { readsPerSec: 0, writesPerSec: 0, transPerSec: 0, scansPerSec: 0, rangeScansPerSec: 0 };

/** A typical OLTP day: mostly key reads, a quarter as many writes, a few scans. */
export const STEADY_RATES: LoadRates = { readsPerSec: 40_000, writesPerSec: 10_000, transPerSec: 6_000, scansPerSec: 50, rangeScansPerSec: 400 };
/** A flat-out key-value benchmark: 1.2M reads/s across the cluster. */
export const BENCHMARK_RATES: LoadRates = {
  readsPerSec: 1_200_000,
  writesPerSec: 300_000,
  transPerSec: 150_000,
  scansPerSec: 20,
  rangeScansPerSec: 2_000,
};

function scale(rates: LoadRates, factor: number): LoadRates {
  return {
    readsPerSec: rates.readsPerSec * factor,
    writesPerSec: rates.writesPerSec * factor,
    transPerSec: rates.transPerSec * factor,
    scansPerSec: rates.scansPerSec * factor,
    rangeScansPerSec: rates.rangeScansPerSec * factor,
  };
}

export function idleProfile(): LoadProfile {
  return { name: 'idle', ratesAt: () => ZERO };
}

export function steadyProfile(rates: LoadRates = STEADY_RATES): LoadProfile {
  return { name: 'steady', ratesAt: () => rates };
}

/** Rises linearly from zero to `rates` over `rampMs`, then holds. */
export function rampProfile(rates: LoadRates = STEADY_RATES, rampMs = 60_000): LoadProfile {
  return { name: 'ramp', ratesAt: (t) => scale(rates, Math.min(1, Math.max(0, t / rampMs))) };
}

export interface BenchmarkPhases {
  warmupMs: number;
  runMs: number;
  cooldownMs: number;
}
export const BENCHMARK_PHASES: BenchmarkPhases = { warmupMs: 20_000, runMs: 60_000, cooldownMs: 15_000 };

/** Warmup ramps to the peak, the run holds it, cooldown ramps back to idle, and it stays idle afterwards. */
export function benchmarkProfile(rates: LoadRates = BENCHMARK_RATES, phases: BenchmarkPhases = BENCHMARK_PHASES): LoadProfile {
  const { warmupMs, runMs, cooldownMs } = phases;
  return {
    name: 'benchmark',
    ratesAt(t) {
      if (t < 0) return ZERO;
      if (t < warmupMs) return scale(rates, t / warmupMs);
      if (t < warmupMs + runMs) return rates;
      if (t < warmupMs + runMs + cooldownMs) return scale(rates, 1 - (t - warmupMs - runMs) / cooldownMs);
      return ZERO;
    },
  };
}

export function namedProfile(name: LoadProfileName): LoadProfile {
  switch (name) {
    case 'idle':
      return idleProfile();
    case 'steady':
      return steadyProfile();
    case 'ramp':
      return rampProfile();
    case 'benchmark':
      return benchmarkProfile();
  }
}

/** Total operations of one kind over [from, to) sim ms, by the midpoint rule (profiles are piecewise linear). */
export function integrate(profile: LoadProfile, key: keyof LoadRates, from: number, to: number): number {
  const steps = 10;
  const width = (to - from) / steps;
  let sum = 0;
  for (let i = 0; i < steps; i++) sum += profile.ratesAt(from + (i + 0.5) * width)[key];
  return (sum * width) / 1000;
}
