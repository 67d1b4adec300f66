import type { NodeView } from '../../contract/node.js';
import type { RecordingLine } from './recording-format.js';

/** A node view as recordings made before December 2026 wrote it: with the poll's time in every node. */
type OlderNodeView = NodeView & { sampledAt?: number };

function withoutSampledAt(nodes: OlderNodeView[] | undefined): NodeView[] | undefined {
  if (!nodes?.some((n) => 'sampledAt' in n)) return nodes;
  return nodes.map(({ sampledAt: _polledAt, ...node }) => node);
}

/**
 * A line in today's shape, whichever ndbtop wrote it. Older recordings carried `sampledAt` in every node of their
 * snapshot and delta lines; that time is the cluster's (`snapshot.sampledAt`, and in a delta `sampledAt` beside
 * the nodes), which those lines carry too, so dropping it from the nodes loses nothing. Inputs never changed shape.
 */
export function upgradeLine(line: RecordingLine): RecordingLine {
  if (line.kind === 'snapshot') {
    const nodes = withoutSampledAt(line.snapshot.nodes);
    return nodes === line.snapshot.nodes || !nodes ? line : { ...line, snapshot: { ...line.snapshot, nodes } };
  }
  if (line.kind === 'delta') {
    const nodes = withoutSampledAt(line.delta.nodes);
    return nodes === line.delta.nodes ? line : { ...line, delta: { ...line.delta, nodes } };
  }
  return line;
}
