import type { LoadRates } from '../workload/load-profile.js';

/** What one STARTED data node handles per second of the cluster's load (the load is shared evenly by them). */
export interface NodeLoad {
  /** Key reads its LDM threads execute. */
  reads: number;
  /** Writes its LDM threads execute: every write runs on each replica. */
  replicaWrites: number;
  /** Transactions and operations its TC threads coordinate. */
  trans: number;
  tcOps: number;
  scans: number;
  rangeScans: number;
}

export const NO_NODE_LOAD: NodeLoad = { reads: 0, replicaWrites: 0, trans: 0, tcOps: 0, scans: 0, rangeScans: 0 };

export function nodeLoad(rates: LoadRates, started: number, replicas: number): NodeLoad {
  if (started === 0) return NO_NODE_LOAD;
  return {
    reads: rates.readsPerSec / started,
    replicaWrites: (rates.writesPerSec * replicas) / started,
    trans: rates.transPerSec / started,
    tcOps: (rates.readsPerSec + rates.writesPerSec) / started,
    scans: rates.scansPerSec / started,
    rangeScans: rates.rangeScansPerSec / started,
  };
}

/** Message bytes per operation on the wire (NDB signals: a key, a few attributes, the reply). Not measured figures. */
export const WIRE = {
  /** API → data node per read or write request, and data node → API per reply (plus the row for a read). */
  requestBytes: 120,
  replyBytes: 60,
  /** Data node → data node per write for each further replica (prepare and commit rounds). */
  replicationBytes: 220,
  /** Heartbeats and other background signals on every link, per second. */
  idleBytesPerSec: 120,
} as const;
