import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// npm test runs the Node-side tests from the build tsc made moments before (dist/, scripts/test-runner/run-tests.mjs --dist),
// the targeted runs from their sources through tsx. A test that reaches for a file beside it (a fixture, a child
// script, the CLI, the README) asks here, so it finds the same file from either place.
const here = dirname(fileURLToPath(import.meta.url));
const compiled = import.meta.url.endsWith('.js');

/** The project's root (where package.json is), from the sources and from dist/ alike. */
export const ROOT = compiled ? join(here, '..', '..') : join(here, '..');
const DIST = join(ROOT, 'dist');

/** The source tree's file for `url`: data files and folders are not in dist/, only what tsc emits. */
export function sourcePath(url: URL): string {
  const path = fileURLToPath(url);
  const inDist = relative(DIST, path);
  return inDist.startsWith('..') || isAbsolute(inDist) ? path : join(ROOT, inDist);
}

/**
 * `node`'s arguments that run the TypeScript module `url` (named by its `.ts` source): its build when this test
 * runs from dist/ (one start-up without tsx, and the same build the test itself is), else the source through tsx.
 */
export function nodeArgs(url: URL): string[] {
  const path = fileURLToPath(url);
  return compiled ? [path.replace(/\.ts$/, '.js')] : ['--import', 'tsx', path];
}

/** `node`'s arguments that run the CLI: the bundle package.json's `bin` names when this test runs from dist/. */
export function cliArgs(): string[] {
  return compiled ? [join(DIST, 'ndbtop.mjs')] : ['--import', 'tsx', join(ROOT, 'electron', 'cli', 'ndbtop.ts')];
}
