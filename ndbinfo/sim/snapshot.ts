import type { Database } from 'sql.js';
import type { ClusterModel } from '../../native-mgm/sim/index.js';
import { ndbinfoTable, type TableDef } from '../schema/tables.js';
import { TABLE_ROWS, type RowContext } from './rows/index.js';
import type { TimeSlice } from './sql/time-slice.js';

/** The model is read at most once per this much sim time: queries within it see the same instant. */
export const SNAPSHOT_TICK_MS = 1000;

/**
 * The ndbinfo tables' rows at one instant of the model. Before a statement runs, the tables it names are filled
 * from the model if they have not been in the current tick; a statement joining several tables so sees them all
 * built from the same instant (a table's rows stay as they are for the rest of the tick).
 */
export class NdbinfoSnapshot {
  private tick = Number.NaN;
  private ctx: RowContext | null = null;
  private readonly filled = new Set<string>();
  /** Per table the SQL node has, where each of its columns stands in the rows the builders give (every column). */
  private readonly picks: ReadonlyMap<string, number[]>;

  constructor(
    private readonly db: Database,
    private readonly model: ClusterModel,
    private readonly tables: readonly TableDef[],
  ) {
    this.picks = new Map(tables.map((t) => [t.name, t.columns.map((c) => ndbinfoTable(t.name)!.columns.findIndex((all) => all.name === c.name))]));
  }

  /**
   * Fills the tables `sql` mentions (by name, anywhere in it) for the current tick. A table's rows are built at once
   * (one instant of the model) and inserted a slice at a time; statements run one at a time, so no other sees the
   * open transaction.
   */
  async prepare(sql: string, slice: TimeSlice): Promise<void> {
    const now = this.model.clock.now();
    const tick = Math.floor(now / SNAPSHOT_TICK_MS);
    if (tick !== this.tick || !this.ctx) {
      this.tick = tick;
      this.model.activity.advanceTo(now);
      this.ctx = { model: this.model, at: now, nodes: this.model.activity.reportingNodes() };
      this.filled.clear();
    }
    const lower = sql.toLowerCase();
    const wanted = this.tables.filter((t) => !this.filled.has(t.name) && new RegExp(`\\b${t.name}\\b`).test(lower));
    if (wanted.length === 0) return;
    this.db.run('PRAGMA query_only = OFF');
    this.db.run('BEGIN');
    try {
      for (const t of wanted) {
        this.db.run(`DELETE FROM ndbinfo.${t.name}`);
        const insert = this.db.prepare(`INSERT INTO ndbinfo.${t.name} VALUES (${t.columns.map(() => '?').join(', ')})`);
        try {
          const pick = this.picks.get(t.name)!;
          // An older release lacks some columns: its rows leave them out.
          const whole = pick.length === ndbinfoTable(t.name)!.columns.length;
          for (const row of TABLE_ROWS[t.name]!(this.ctx)) {
            insert.run(whole ? row : pick.map((i) => row[i]!));
            await slice.row();
          }
        } finally {
          insert.free();
        }
        this.filled.add(t.name);
        await slice.check();
      }
      this.db.run('COMMIT');
    } catch (err) {
      this.db.run('ROLLBACK');
      throw err;
    } finally {
      this.db.run('PRAGMA query_only = ON');
    }
  }
}
