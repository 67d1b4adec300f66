import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function isNdbtopRoot(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'ndbtop';
  } catch {
    return false;
  }
}

/**
 * Where Vite puts the built renderer (renderer/vite.config.ts: `dist/renderer` under the package root). Found
 * from the package root upward from here, since source (tsx), dist/ and the packaged app.asar sit at different
 * depths.
 */
export function rendererDistDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6 && !isNdbtopRoot(dir); depth++) dir = dirname(dir);
  return join(dir, 'dist', 'renderer');
}

export function isRendererBuilt(dir: string): boolean {
  return existsSync(join(dir, 'index.html'));
}
