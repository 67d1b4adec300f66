import type { NodeView } from '../../contract/node.js';
import type { RecordingLine } from './recording-format.js';

/**
 * A node view as recordings made before December 2026 wrote it: with the poll's time in every node, and its
 * rates with the arrival time of the report they came from.
 */
type OlderNodeView = Omit<NodeView, 'rates'> & { sampledAt?: number; rates: (NodeView['rates'] & { at?: number }) | null };

/** Whether the rates carry an arrival time; a malformed line's rates may be anything. */
const hasAt = (rates: unknown): rates is { at: unknown } => typeof rates === 'object' && rates !== null && 'at' in rates;

const isOlder = (n: OlderNodeView): boolean => typeof n === 'object' && n !== null && ('sampledAt' in n || hasAt(n.rates));

function upgradeNode({ sampledAt: _polledAt, ...node }: OlderNodeView): NodeView {
  if (!hasAt(node.rates)) return node as NodeView;
  const { at: _arrivedAt, ...rates } = node.rates;
  return { ...node, rates };
}

function upgradeNodes(nodes: OlderNodeView[] | undefined): NodeView[] | undefined {
  if (!nodes?.some(isOlder)) return nodes as NodeView[] | undefined;
  return nodes.map(upgradeNode);
}

/**
 * A line in today's shape, whichever ndbtop wrote it. Older recordings carried `sampledAt` in every node of their
 * snapshot and delta lines; that time is the cluster's (`snapshot.sampledAt`, and in a delta `sampledAt` beside
 * the nodes), which those lines carry too, so dropping it from the nodes loses nothing. They also carried each
 * node's report arrival time in its rates (`rates.at`), which today stays in the engine: freshness shows as
 * `rates.stale`, which those lines carry too. Inputs never changed shape.
 */
export function upgradeLine(line: RecordingLine): RecordingLine {
  if (line.kind === 'snapshot') {
    const nodes = upgradeNodes(line.snapshot.nodes);
    return nodes === line.snapshot.nodes || !nodes ? line : { ...line, snapshot: { ...line.snapshot, nodes } };
  }
  if (line.kind === 'delta') {
    const nodes = upgradeNodes(line.delta.nodes);
    return nodes === line.delta.nodes ? line : { ...line, delta: { ...line.delta, nodes } };
  }
  return line;
}
