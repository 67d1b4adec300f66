/**
 * How much one SQL answer may hold. An SQL node answers whatever it likes: a million rows of `cpustat` took ndbtop to
 * 2.46 GB before these limits. Each reading's row limit follows the cluster's shape (its data nodes, as the
 * management server reports them) times the most rows one data node can give that table, plus a margin; before the
 * shape is known (and in `ndbtop ndbinfo`, which has no management server) it is the largest cluster NDB allows.
 * Every answer also has a byte limit, counted as the bytes arrive, so one huge value cannot get past the row count.
 */

/** The most data nodes one cluster can have (NDB 8.x: node ids 1–144). */
export const MAX_DATA_NODES = 144;

/**
 * The most threads one ndbmtd can run, as mt.hpp bounds them: 2 main threads + LDM (332) + TC (128) + receive (64)
 * + send (64) threads, rounded up. (The per-kind maxima are from the 8.x sources; not confirmed for every release.)
 */
export const MAX_THREADS_PER_NODE = 600;

/** The most rows per data node of a table with one row per remote node: node ids go up to 255. */
export const MAX_NODES = 255;

/** Every answer's byte limit (what arrives on the socket, column definitions included): 32 MiB. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** The rows of `information_schema.TABLES` the discovery may read (ndbinfo has about 60 tables and views). */
export const DISCOVERY_MAX_ROWS = 1000;

/** What ndbtop knows of the cluster it reads; null fields are not known (yet). */
export interface ClusterShape {
  readonly dataNodes: number | null;
}

/** The limits of one query, and what to name in the error when one is passed. */
export interface AnswerLimit {
  /** `ndbinfo.cpustat`: the table the error names. */
  readonly what: string;
  readonly maxRows: number;
  readonly maxBytes: number;
}

/** A quarter more than the shape allows, and a few rows more for a small cluster growing between two readings. */
const margin = (rows: number): number => Math.ceil(rows * 1.25) + 64;

/** The row limit of a reading whose table has at most `perNode` rows per data node. */
export function rowLimit(perNode: number, shape: ClusterShape | null): number {
  const nodes = shape?.dataNodes ?? MAX_DATA_NODES;
  return margin(Math.max(1, nodes) * perNode);
}
