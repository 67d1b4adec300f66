/** Per-node state the model keeps; what `get status` prints is derived from it (status-rows.ts). */
export type DataNodeStatus = 'NO_CONTACT' | 'NOT_STARTED' | 'STARTING' | 'STARTED' | 'SHUTTING_DOWN';

export interface DataNode {
  readonly id: number;
  readonly nodeGroup: number;
  readonly address: string;
  readonly dataMemoryBytes?: number;
  readonly indexMemoryBytes?: number;
  version: number;
  status: DataNodeStatus;
  /** STARTING: last completed start phase; SHUTTING_DOWN: stop level 1..4. */
  startPhase: number;
  /** Position in the heartbeat ring; 0 while not registered. The lowest live one is the master. */
  dynamicId: number;
  connectCount: number;
  /** Stopped with `initialstart`: its next start is an initial node restart. */
  initialPending: boolean;
  /** Bumped whenever a new lifecycle takes the node over, so a superseded one stops acting. */
  generation: number;
}

export interface MgmNode {
  readonly id: number;
  readonly address: string;
  version: number;
  running: boolean;
}

export interface ApiNode {
  readonly id: number;
  readonly address: string;
  version: number;
  connected: boolean;
}

/** In the heartbeat ring: takes part in failure handling and may be master. */
export function inCluster(node: DataNode): boolean {
  return node.dynamicId > 0 && (node.status === 'STARTING' || node.status === 'STARTED' || node.status === 'SHUTTING_DOWN');
}
