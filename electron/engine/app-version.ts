import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** ndbtop's version from its package.json, found upward from here (source and dist sit at different depths). */
export function appVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'ndbtop' && pkg.version) return pkg.version;
    } catch {
      // not here; look further up
    }
    dir = dirname(dir);
  }
  return '0.0.0';
}
