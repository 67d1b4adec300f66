import { defaultOf } from '../../config/index.js';
import type { ClusterModel } from '../cluster-model.js';

/** A data node's numeric parameter as its configuration gives it, else the server's default. */
export function dataNodeParam(model: ClusterModel, nodeId: number, name: string): number {
  const value = Number(model.config?.nodes.find((n) => n.nodeId === nodeId)?.params[name] ?? defaultOf('DB', name));
  if (!Number.isFinite(value)) throw new RangeError(`no numeric ${name} for data node ${nodeId}`);
  return value;
}

/** The data node after `previous` in id order that is not the master (the master's DIH is what judges the others). */
export function nextNonMaster(model: ClusterModel, previous: number): number | undefined {
  const master = model.master()?.id;
  const ids = [...model.data.keys()].filter((id) => id !== master).sort((a, b) => a - b);
  return ids.find((id) => id > previous) ?? ids[0];
}
