import type { LoadProfile, LoadRates } from '../workload/load-profile.js';
import { waitUntil, allStarted, type ScenarioContext } from './scenario.js';

export const NO_LOAD: LoadRates = { readsPerSec: 0, writesPerSec: 0, transPerSec: 0, scansPerSec: 0, rangeScansPerSec: 0 };

/**
 * A constant load. Report intervals that began before the load was set are integrated with it too, so a
 * profile must be defined (and never negative) for any time, before its start included.
 */
export function constantProfile(name: string, rates: LoadRates): LoadProfile {
  const safe = Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, Math.max(0, v)])) as unknown as LoadRates;
  return { name, ratesAt: () => safe };
}

/**
 * Falls linearly from `from` to `to` over `fallMs`, starting `afterMs` after it is set; constant otherwise. The
 * clients keep offering `from` throughout: the cluster stops keeping up, the work has not gone away.
 */
export function fallingProfile(name: string, from: LoadRates, to: LoadRates, afterMs: number, fallMs: number): LoadProfile {
  return {
    name,
    offeredAt: () => from,
    ratesAt(t) {
      const k = Math.min(1, Math.max(0, (t - afterMs) / fallMs));
      return Object.fromEntries(Object.keys(from).map((key) => {
        const f = from[key as keyof LoadRates];
        const g = to[key as keyof LoadRates];
        return [key, Math.max(0, f + (g - f) * k)];
      })) as unknown as LoadRates;
    },
  };
}

export interface DriverPhase {
  name: string;
  durationMs: number;
  profile: LoadProfile;
}

export interface DriverRun {
  name: string;
  tags: Record<string, string>;
  phases: DriverPhase[];
}

/**
 * Runs like a benchmark script does: waits for a healthy cluster (and a marker, when the simulator was told to),
 * marks the run's start with its first phase, sets each phase's load after marking it, marks the stop and goes
 * idle. Marks go first so the dashboard never sees a phase's load before it knows the phase.
 */
export async function driveRun(ctx: ScenarioContext, run: DriverRun): Promise<void> {
  const { model, clock, marks } = ctx;
  await waitUntil(clock, () => allStarted(model) && (!marks.waitForMarker || marks.attached));
  const [first, ...rest] = run.phases;
  if (!first) return;
  await marks.start(run.name, run.tags, first.name);
  model.setLoad(first.profile);
  await clock.sleep(first.durationMs);
  for (const phase of rest) {
    await marks.phase(phase.name);
    model.setLoad(phase.profile);
    await clock.sleep(phase.durationMs);
  }
  await marks.stop();
  model.setLoad(constantProfile('idle', NO_LOAD));
}
