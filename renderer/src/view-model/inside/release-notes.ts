import type { NdbinfoFeature, NdbinfoHostCpu, NdbinfoView } from '../../contract.js';
import { formatPercent } from './threads.js';

/** The engine's sentences for the figures of `keys` this SQL node does not give (none while it never came up). */
export function missingFeatures(view: NdbinfoView | null, keys: readonly NdbinfoFeature['key'][]): NdbinfoFeature[] {
  return (view?.source.features ?? []).filter((f) => keys.includes(f.key) && !f.available);
}

/** "host 34 % of 8 CPUs" (or "of 7 of 8 online"); null without a reading. */
export function hostCpuText(h: NdbinfoHostCpu | null | undefined): string | null {
  if (!h || h.busy === null) return null;
  return `host ${formatPercent(h.busy)} of ${h.online === h.cpus ? h.cpus : `${h.online} of ${h.cpus} online`} CPU${h.cpus === 1 ? '' : 's'}`;
}
