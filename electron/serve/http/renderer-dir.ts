import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../engine/core/package-root.js';

/** Where Vite puts the built renderer (renderer/vite.config.ts: `dist/renderer` under the package root). */
export function rendererDistDir(): string {
  return join(packageRoot()?.dir ?? process.cwd(), 'dist', 'renderer');
}

export function isRendererBuilt(dir: string): boolean {
  return existsSync(join(dir, 'index.html'));
}
