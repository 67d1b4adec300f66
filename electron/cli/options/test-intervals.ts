/**
 * An interval a test shortens in a CLI child process (the recorder's keyframes, `NDBTOP_KEYFRAME_MS`; the report's
 * lead before a run, `NDBTOP_REPORT_LEAD_MS`), so it waits for a sped-up simulator rather than wall time. Read from
 * the environment as `{ [key]: ms }`; unset or not a positive integer: nothing, and the default holds.
 */
export function testInterval<K extends string>(env: string, key: K): Partial<Record<K, number>> {
  const ms = Number(process.env[env]);
  return Number.isInteger(ms) && ms > 0 ? ({ [key]: ms } as Record<K, number>) : {};
}
