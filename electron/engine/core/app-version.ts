import { packageRoot } from './package-root.js';

/** ndbtop's version from its package.json. */
export function appVersion(): string {
  return packageRoot()?.pkg.version ?? '0.0.0';
}
