import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Finds the Electron executable without `require('electron')`, which under plain Node downloads as a side effect
 * and throws when it cannot. Electron 45's npm package has no install script: its binary is fetched on first use,
 * so when it is missing we run the package's own installer once, visibly, and report why it failed.
 */
export function locateElectron(fetchIfMissing: boolean, env: NodeJS.ProcessEnv = process.env): { path: string } | { missing: string } {
  // Headless servers (and tests on networked machines) choose the browser dashboard without a download attempt.
  if (env.NDBTOP_ELECTRON === 'off') return { missing: 'NDBTOP_ELECTRON=off' };
  let dir: string;
  try {
    dir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { missing: 'the electron package is not installed (npm install)' };
  }
  const found = (): string | null => {
    const pathFile = join(dir, 'path.txt');
    if (!existsSync(pathFile)) return null;
    const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : null;
  };
  const already = found();
  if (already) return { path: already };
  if (!fetchIfMissing) return { missing: 'the Electron binary has not been downloaded' };
  process.stderr.write('ndbtop: fetching the Electron binary (first run)…\n');
  const result = spawnSync(process.execPath, [join(dir, 'install.js')], { stdio: ['ignore', 'inherit', 'pipe'], timeout: 300_000 });
  const fetched = found();
  if (fetched) return { path: fetched };
  const why = result.stderr?.toString().split('\n').find((l) => /error/i.test(l))?.trim();
  return { missing: `the Electron binary could not be downloaded${why ? ` (${why})` : ''}` };
}
