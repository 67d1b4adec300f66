/**
 * How runs are lined up and told apart when compared, shared by the engine (its comparison, the CLI report) and
 * the page (its overlay and legends), so both default the same way. No zod here: the page loads it at run time.
 */
interface Named {
  name: string;
}
interface Phased {
  phases: readonly Named[];
}

/** Phase names every one of the runs has, in the first run's order: what the runs can be aligned at. */
export function commonPhases(runs: readonly Phased[]): string[] {
  const [first, ...rest] = runs;
  if (!first) return [];
  return [...new Set(first.phases.map((p) => p.name))].filter((name) => rest.every((r) => r.phases.some((p) => p.name === name)));
}

/** Warm-up and ramp phases measure a cluster on its way to the load, not under it. */
const WARM_UP = /warm|ramp/i;

/**
 * The default alignment: the first phase the runs share after warm-up. Aligned at their start, a comparison
 * averaged each run's warm-up into its figures (+43 % where the measured phases differ by −27 %).
 */
export function defaultAlign(runs: readonly Phased[]): string {
  return commonPhases(runs).find((name) => !WARM_UP.test(name)) ?? 'start';
}

/** Legend names: a name given to more than one of the runs gets " #2", " #3" … from its second one on. */
export function legendNames(runs: readonly Named[]): string[] {
  const seen = new Map<string, number>();
  return runs.map((r) => {
    const n = (seen.get(r.name) ?? 0) + 1;
    seen.set(r.name, n);
    return n === 1 ? r.name : `${r.name} #${n}`;
  });
}
