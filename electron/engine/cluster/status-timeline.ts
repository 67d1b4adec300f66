import type { NodeStatus } from '../../contract/schemas/node.js';
import type { Timeline } from '../../contract/schemas/history.js';

type Segment = Timeline['nodes'][number]['segments'][number];

/** Per-node status segments for the timeline view, trimmed to the history horizon. */
export class StatusTimeline {
  private readonly nodes = new Map<number, Segment[]>();

  constructor(private horizonMs: number) {}

  setHorizon(ms: number): void {
    this.horizonMs = ms;
  }

  note(nodeId: number, status: NodeStatus, startPhase: number, at: number): void {
    const list = this.nodes.get(nodeId) ?? [];
    const last = list.at(-1);
    if (last && last.status === status && last.startPhase === startPhase) return;
    if (last) last.to = at;
    list.push({ status, startPhase, from: at, to: null });
    this.trim(list, at);
    this.nodes.set(nodeId, list);
  }

  forget(nodeId: number): void {
    this.nodes.delete(nodeId);
  }

  view(fromMs: number | undefined, now: number): Timeline {
    const from = fromMs ?? now - this.horizonMs;
    const nodes = [...this.nodes.entries()]
      .sort(([a], [b]) => a - b)
      .map(([nodeId, segments]) => ({ nodeId, segments: segments.filter((s) => s.to === null || s.to >= from).map((s) => ({ ...s })) }));
    return { fromMs: from, toMs: now, nodes };
  }

  private trim(list: Segment[], now: number): void {
    const cutoff = now - this.horizonMs;
    while (list.length > 1 && (list[0]?.to ?? Infinity) < cutoff) list.shift();
  }
}
