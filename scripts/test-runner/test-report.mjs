// What scripts/test-runner/run-tests.mjs reads from each file's TAP output and prints at the end of a run.

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

/**
 * The slowest files, slowest first, with the CPU time each used (its own process and those it started) and the
 * totals of the run: a file whose CPU is far below its wall time waits (sockets, timers, simulated clusters) and
 * costs the machine little; the sum of CPU over the cores is the least wall time the run can take.
 */
export function slowestTable(results, { top, wallMs, slots, load, browserCpuMs = null }) {
  const sorted = [...results].sort((a, b) => b.ms - a.ms);
  const sum = results.reduce((a, r) => a + r.ms, 0);
  const seconds = (ms) => (ms === null || ms === undefined ? '-' : (ms / 1000).toFixed(1));
  const lines = [`# slowest ${Math.min(top, sorted.length)} of ${results.length} files (wall time of each file's process, and its CPU time)`];
  for (const r of sorted.slice(0, top)) lines.push(`# ${seconds(r.ms).padStart(7)} s  ${seconds(r.cpuMs).padStart(6)} s CPU  ${r.file}`);
  const cpu = results.every((r) => typeof r.cpuMs === 'number') ? results.reduce((a, r) => a + r.cpuMs, 0) : null;
  lines.push(
    `# ${results.length} files in ${seconds(wallMs)} s wall (sum of files ${seconds(sum)} s, ${slots} slots), ` +
      `CPU ${seconds(cpu)} s (files) + ${seconds(browserCpuMs)} s (shared Chromium), load average ${load.map((l) => l.toFixed(2)).join(' ')}`,
  );
  return lines.join('\n');
}

/**
 * Each failed test of a file's TAP output (`not ok N - name`, at any depth) with the first lines of its diagnostics
 * (error, expected, actual, location): repeated at the end of a run, where a CI log cut to its tail still shows
 * which test failed and why, not only which file.
 */
export function failedTests(text, { detailLines = 12 } = {}) {
  const lines = text.split('\n');
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const head = /^(\s*)not ok \d+ - (.*)$/.exec(lines[i]);
    if (!head) continue;
    const details = [];
    const indent = head[1].length;
    // node:test's YAML block (`---` … `...`) is indented two more than its `not ok` line.
    if (lines[i + 1]?.trim() === '---') {
      for (let j = i + 2; j < lines.length && lines[j].trim() !== '...' && details.length < detailLines; j++) {
        if (/^\s*duration_ms:/.test(lines[j])) continue;
        details.push(lines[j].slice(indent + 2));
      }
    }
    // A parent whose only fault is a failed subtest adds nothing to the subtest's own entry.
    if (!details.includes("failureType: 'subtestsFailed'")) found.push({ name: head[2], details });
  }
  return found;
}
