// Which files are test files: what scripts/test-runner/run-tests.mjs runs when given no files, and what the committed timings
// (scripts/test-runner/test-timings.json) must list (electron/test/test-workflow.test.ts).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The folders npm test looks in. */
export const TEST_ROOTS = ['native-mgm', 'ndbinfo', 'electron', 'renderer', 'bench'];
const SKIP = new Set(['node_modules', 'dist', 'release']);

/** Every *.test.ts(x) under `dir`, as absolute paths. */
export function collectTests(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collectTests(path, out);
    else if (/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

/** Every test file of the project at `root`, project-relative and `/`-separated. */
export function allTestFiles(root) {
  return TEST_ROOTS.map((r) => join(root, r))
    .filter((r) => existsSync(r))
    .flatMap((r) => collectTests(r))
    .map((f) => relative(root, f).split(sep).join('/'));
}
