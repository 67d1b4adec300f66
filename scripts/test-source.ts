import { join } from 'node:path';
import { packageRoot } from '../electron/engine/package-root.js';

// npm test runs the test files bundled (scripts/run-tests.mjs --dist, scripts/test-build.mjs: dist/…/x.test.mjs), the
// targeted runs from their sources through tsx. In a bundle `import.meta.url` is the bundle's or its shared chunk's,
// not the test's, so a test names a file it reaches for (a fixture, a child script, the CLI, the README) from the
// project's root, and asks here for where that is and how to start it from either place.
const bundled = !import.meta.url.endsWith('.ts');

/** The project's root (where package.json is), from the sources and from a bundle alike. */
export const ROOT = packageRoot()?.dir ?? process.cwd();
const DIST = join(ROOT, 'dist');

/** The absolute path of the project's file or folder `path` (`/`-separated, from the root). */
export function sourcePath(path: string): string {
  return join(ROOT, path);
}

/**
 * `node`'s arguments that run the TypeScript script `path` (from the root; a test folder's `*-child.ts`): its bundle
 * when this test runs bundled (one start-up without tsx, made with the test), else the source through tsx.
 */
export function nodeArgs(path: string): string[] {
  return bundled ? [join(DIST, path.replace(/\.tsx?$/, '.mjs'))] : ['--import', 'tsx', sourcePath(path)];
}

/** `node`'s arguments that run the CLI: the bundle package.json's `bin` names when this test runs bundled. */
export function cliArgs(): string[] {
  return bundled ? [join(DIST, 'ndbtop.mjs')] : ['--import', 'tsx', sourcePath('electron/cli/ndbtop.ts')];
}
