/** The typed values native-mgm hands to its users. Words keep the protocol's spelling (spec §5.3, §5.4). */

export const NODE_TYPES = ['NDB', 'MGM', 'API'] as const;
export type NodeType = (typeof NODE_TYPES)[number];

export const NODE_STATUSES = [
  'UNKNOWN',
  'NO_CONTACT',
  'NOT_STARTED',
  'STARTING',
  'STARTED',
  'SHUTTING_DOWN',
  'RESTARTING',
  'SINGLE USER MODE',
  'RESUME',
  'CONNECTED',
] as const;
export type NodeStatus = (typeof NODE_STATUSES)[number];

/**
 * One node as `get status` reports it. Values the server prints as placeholders (the node group of a
 * NO_CONTACT data node, version 0, the 0.0.0.0 address of a free API slot) are `null` here, never passed on
 * as if they were real.
 */
export interface NodeState {
  nodeId: number;
  type: NodeType;
  /** Exact protocol word; an unrecognised word becomes UNKNOWN and stays readable in `statusRaw`. */
  status: NodeStatus;
  statusRaw: string;
  /** While STARTING: last completed start phase; while SHUTTING_DOWN: stop level 1..4; else 0. */
  startPhase: number;
  /** Node group number, 'none' for a data node in no node group (-256), null when not known. */
  nodeGroup: number | 'none' | null;
  /** Decoded "8.4.3", null when the server does not know it (0). */
  version: string | null;
  versionRaw: number;
  mysqlVersion: string | null;
  mysqlVersionRaw: number;
  address: string | null;
  connectCount: number | null;
  /** Signed as printed: negative on the master data node. null when not known (0). */
  dynamicId: number | null;
  /** null when the server did not send the field (no `set clientversion` >= 8.0.22). */
  isSingleUser: boolean | null;
  isMaster: boolean;
  /** Fields a newer server sent that this version does not know, kept verbatim. */
  extra: Record<string, string>;
  /**
   * Which data node binary runs, where events show it (spec §14.11; `get status` prints NDB for both): set by
   * DataNodeBinaryEvidence.annotate, absent when nothing showed it yet.
   */
  dataNodeBinary?: DataNodeBinary;
}

/** ndbd (single-threaded) or ndbmtd (multi-threaded), as inferred from events (spec §14.11). */
export type DataNodeBinary = 'ndbd' | 'ndbmtd';

export interface ServerVersion {
  id: number;
  major: number;
  minor: number;
  build: number;
  string: string;
  mysqlMajor: number | null;
  mysqlMinor: number | null;
  mysqlBuild: number | null;
}

/**
 * One event record from the event stream or `dump events` (spec §6.3). `time=` on the wire is always 0, so
 * `receivedAt` is the client's clock at the moment the record was complete.
 */
export interface ClusterEvent {
  typeId: number;
  /** Catalogue name, or `Unknown<id>` for a type this version does not know. */
  name: string;
  category: string | null;
  severity: string | null;
  sourceNodeId: number;
  receivedAt: number;
  /** Catalogue fields as numbers: unsigned 32-bit words, except the fields the catalogue marks signed. */
  fields: Record<string, number>;
  /** Raw body words for types without a field table (`data=`), else null. */
  data: number[] | null;
  known: boolean;
  /**
   * Key/values after `source_nodeid` exactly as received that `fields` does not already hold as numbers:
   * every one for an unknown type, `data` for a type without a field table, else only keys the catalogue
   * does not name (usually none).
   */
  raw: Record<string, string>;
}
