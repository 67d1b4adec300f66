import type { ClusterModel, DataNode } from '../../../native-mgm/sim/index.js';

export type Cell = string | number | null;
export type Row = Cell[];

/** One instant of the model a query sees: every table is built from it. */
export interface RowContext {
  readonly model: ClusterModel;
  /** Sim time of the snapshot. */
  readonly at: number;
  /** Data nodes whose process runs: ndbinfo has rows only from them. */
  readonly nodes: readonly DataNode[];
}

export type TableRows = (ctx: RowContext) => Row[];

/** Cumulative counters are whole numbers in ndbinfo. */
export const whole = (x: number): number => Math.max(0, Math.floor(x));
