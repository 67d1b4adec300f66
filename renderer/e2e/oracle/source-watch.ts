import type { Simulator } from '../../../native-mgm/sim/index.js';
import { eventTypeByName } from '../../../native-mgm/events/catalogue.js';
import type { BackupTruth, Fall } from './frame.js';

const COMPLETED = eventTypeByName('BackupCompleted');

/**
 * What the simulator did that a frame's model alone cannot tell: each data node's falls and returns (when it left
 * STARTED, began starting, was STARTED again) and the backups it ended, with their sums; all in wall-clock ms, the
 * engine's clock. Watched from before the scenario's first move (it begins once the engine reads its status).
 */
export class SourceWatch {
  private readonly falls: Fall[] = [];
  private readonly ended: BackupTruth['ended'] = [];

  constructor(private readonly sim: Simulator) {
    sim.model.onStatusChange((node) => {
      const at = this.wall(sim.model.clock.now());
      const open = this.falls.find((f) => f.nodeId === node.id && f.upAt === null);
      if (node.status === 'STARTED') {
        if (open) open.upAt = at;
      } else if (!open) this.falls.push({ nodeId: node.id, downAt: at, startingAt: node.status === 'STARTING' ? at : null, upAt: null });
      else if (node.status === 'STARTING') open.startingAt ??= at;
      // Down again before it was back (a failed start): a start seen from then on is the one that counts.
      else if (open.startingAt !== null) open.startingAt = null;
    });
    sim.model.onEvent((e) => {
      if (e.type !== COMPLETED.id) return;
      // The sums the coordinator sent, word by word as the catalogue places them.
      const field = (name: string): number => e.body[(COMPLETED.fields?.find((x) => x.name === name)?.word ?? 0) - 1] ?? 0;
      const join = (hi: string, lo: string): number => field(hi) * 2 ** 32 + field(lo);
      this.ended.push({ id: field('backup_id'), at: Date.now(), bytes: join('n_bytes_hi', 'n_bytes'), records: join('n_records_hi', 'n_records') });
    });
  }

  /** Sim ms to wall ms, now. */
  private wall(simMs: number): number {
    const clock = this.sim.model.clock;
    return Date.now() - (clock.now() - simMs) / clock.speed;
  }

  /** The falls and backups so far, as the frame's truth. */
  truth(): { falls: Fall[]; backups: BackupTruth } {
    return { falls: this.falls.map((f) => ({ ...f })), backups: this.backups() };
  }

  private backups(): BackupTruth {
    const running = this.sim.model.backups.progress().map((b) => ({
      id: b.id,
      startedAt: this.wall(b.startedAt),
      endsAt: this.wall(b.endsAt),
      rowBytes: b.rowBytes,
      nodes: b.nodes.map((n) => ({ nodeId: n.nodeId, shareBytes: n.shareBytes, bytes: n.bytes, records: n.records, writtenBy: this.wall(b.startedAt + n.durationMs) })),
    }));
    return { running, ended: this.ended.map((e) => ({ ...e })) };
  }
}
