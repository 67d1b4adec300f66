import { defaultOf } from '../../config/index.js';
import type { ClusterModel } from '../cluster-model.js';

/** A data node's numeric parameter as its configuration gives it, else the server's default. */
export function dataNodeParam(model: ClusterModel, nodeId: number, name: string): number {
  const value = Number(model.config?.nodes.find((n) => n.nodeId === nodeId)?.params[name] ?? defaultOf('DB', name));
  if (!Number.isFinite(value)) throw new RangeError(`no numeric ${name} for data node ${nodeId}`);
  return value;
}

