// What scripts/run-tests.mjs reads from each file's TAP output and prints at the end of a run.

const COUNTS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];

/**
 * node:test's closing diagnostics (`# tests 3`, `# pass 3` … at the start of a line, after the last top-level
 * test). `broken` when they are missing: the file crashed or was killed before its tests finished.
 */
export function parseTapSummary(text) {
  const summary = { broken: false };
  for (const k of COUNTS) {
    const found = [...text.matchAll(new RegExp(`^# ${k} (\\d+)$`, 'gm'))].at(-1);
    if (!found && k !== 'suites') summary.broken = true;
    summary[k] = found ? Number(found[1]) : 0;
  }
  return summary;
}

/** The slowest files, slowest first, with the totals of the run. */
export function slowestTable(results, { top, wallMs, slots, load }) {
  const sorted = [...results].sort((a, b) => b.ms - a.ms);
  const sum = results.reduce((a, r) => a + r.ms, 0);
  const lines = [`# slowest ${Math.min(top, sorted.length)} of ${results.length} files (wall time of each file's process)`];
  for (const r of sorted.slice(0, top)) lines.push(`# ${(r.ms / 1000).toFixed(1).padStart(7)} s  ${r.file}`);
  lines.push(
    `# ${results.length} files in ${(wallMs / 1000).toFixed(1)} s wall (sum of files ${(sum / 1000).toFixed(1)} s, ${slots} slots), ` +
      `load average ${load.map((l) => l.toFixed(2)).join(' ')}`,
  );
  return lines.join('\n');
}
