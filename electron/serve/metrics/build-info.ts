import type { FamilyMaker } from './family.js';

/** `ndbtop_build_info`, the convention for "which version is this exporter": constant 1, facts in labels. */
export function buildInfoFamily({ gauge }: FamilyMaker): (version: string) => void {
  const info = gauge('ndbtop_build_info', 'Always 1; the ndbtop version and the Node.js runtime serving these metrics', ['version', 'nodejs_version']);
  return (version) => info.set({ version, nodejs_version: process.versions.node }, 1);
}
