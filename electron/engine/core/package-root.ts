import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackageJson {
  name?: string;
  version?: string;
}

function readPackage(dir: string): PackageJson | null {
  try {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
    return pkg.name === 'ndbtop' ? pkg : null;
  } catch {
    return null;
  }
}

/**
 * ndbtop's package root and its package.json, found upward from this module: the sources (tsx), tsc's dist/, the
 * CLI's bundle (dist/ndbtop.mjs, its chunks in dist/cli-chunks/) and the packaged app.asar all sit at different depths below it.
 */
export function packageRoot(): { dir: string; pkg: PackageJson } | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++, dir = dirname(dir)) {
    const pkg = readPackage(dir);
    if (pkg) return { dir, pkg };
  }
  return null;
}
