/** The run an alert comes during: a running run and its current phase. */
export interface RunScope {
  id: string;
  name: string;
  phase: string | null;
}

interface Recurrence {
  alertId: string;
  count: number;
  /** What its words end with once it came back: which time, during which run and phase. */
  suffix: string;
}

function ordinal(n: number): string {
  const tens = n % 100;
  const end = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${end}`;
}

/**
 * While a run is running, a condition that clears and comes back (a benchmark's memory high each cycle) is the same
 * alert coming back, not a new one: one alert per condition (its key: kind and subject) and run, reopened with a
 * count. A new run, or no run, starts afresh.
 */
export class RunRecurrences {
  private runId: string | null = null;
  private readonly byKey = new Map<string, Recurrence>();

  /** The alert `key` raised as `alertId` during `run` (null: none running). */
  raised(key: string, alertId: string, run: RunScope | null): void {
    this.follow(run);
    if (run) this.byKey.set(key, { alertId, count: 1, suffix: '' });
  }

  /** The earlier alert of this run `key` comes back as, with the words to end it with now; null if none. */
  returning(key: string, run: RunScope | null): { alertId: string; suffix: string } | null {
    this.follow(run);
    const r = run && this.byKey.get(key);
    if (!run || !r) return null;
    r.count += 1;
    r.suffix = ` (${ordinal(r.count)} time during run ${run.name}${run.phase ? `, phase ${run.phase}` : ''})`;
    return r;
  }

  /** The earlier alert could not be reopened (evicted): `key`'s next one starts afresh. */
  forget(key: string): void {
    this.byKey.delete(key);
  }

  /** What a revision of `key`'s words keeps at their end. */
  suffix(key: string): string {
    return this.byKey.get(key)?.suffix ?? '';
  }

  private follow(run: RunScope | null): void {
    if ((run?.id ?? null) === this.runId) return;
    this.runId = run?.id ?? null;
    this.byKey.clear();
  }
}
