import type { Simulator } from '../../../native-mgm/sim/index.js';

interface Restart {
  nodeId: number;
  downAt: number;
  upAt: number | null;
}

/**
 * The simulator's own finish of the rolling-restart round under way, from its timings: the rolling-restart scenario
 * restarts the data nodes in id order, one at a time, each the same way, so once two restarts of a round have begun
 * and one is done, its finish is the first's start + (nodes − 1) × the gap between starts + one restart's length.
 * A short run never sees a round end; this is the truth its first ETA is held to.
 */
export class RoundTruth {
  private readonly restarts: Restart[] = [];
  /** Set when the watch began with a restart under way: its rounds cannot be told, so nothing is predicted. */
  private joinedLate = false;
  private readonly ids: number[];

  constructor(private readonly sim: Simulator) {
    this.ids = [...sim.model.data.keys()].sort((a, b) => a - b);
    this.joinedLate = [...sim.model.data.values()].some((n) => n.status !== 'STARTED');
    sim.model.onStatusChange((node) => {
      const t = sim.model.clock.now();
      const open = this.restarts.find((r) => r.nodeId === node.id && r.upAt === null);
      if (node.status === 'STARTED') {
        if (open) open.upAt = t;
      } else if (!open) this.restarts.push({ nodeId: node.id, downAt: t, upAt: null });
    });
  }

  /** Wall-clock ms when the round under way ends, by the simulator's timings; null while that cannot be told yet. */
  predictedFinish(): number | null {
    if (this.joinedLate || this.restarts.length === 0) return null;
    const n = this.ids.length;
    const round = this.restarts.slice(Math.floor((this.restarts.length - 1) / n) * n);
    if (round[0]?.nodeId !== this.ids[0] || round.length < 2) return null;
    const done = round.filter((r) => r.upAt !== null);
    if (done.length === 0) return null;
    const gaps = round.slice(1).map((r, i) => r.downAt - (round[i]?.downAt ?? r.downAt));
    const gap = gaps.reduce((s, g) => s + g, 0) / gaps.length;
    const length = done.reduce((s, r) => s + ((r.upAt ?? r.downAt) - r.downAt), 0) / done.length;
    const finishSim = (round[0]?.downAt ?? 0) + (n - 1) * gap + length;
    const clock = this.sim.model.clock;
    return Date.now() + (finishSim - clock.now()) / clock.speed;
  }
}
