import type { MemoryUse, NodeView, Rates } from '../../contract/schemas/node.js';
import type { ConnectionView } from '../../contract/schemas/snapshot.js';
import type { RecordingLine } from './recording-format.js';

type WithAt<T> = (T & { at?: number }) | null;

/**
 * A node view as recordings made before December 2026 wrote it: with the poll's time in every node, its rates
 * with the arrival time of the report they came from, and its memory figures with the arrival time of theirs.
 */
type OlderNodeView = Omit<NodeView, 'rates' | 'memory'> & {
  sampledAt?: number;
  rates: WithAt<NonNullable<NodeView['rates']>>;
  memory: { data: WithAt<MemoryUse>; index: WithAt<MemoryUse> };
};

/** Whether a part carries an arrival time; a malformed line's parts may be anything. */
const hasAt = (part: unknown): part is { at: unknown } => typeof part === 'object' && part !== null && 'at' in part;

const memoryHasAt = (memory: unknown): memory is OlderNodeView['memory'] =>
  typeof memory === 'object' && memory !== null && (hasAt((memory as OlderNodeView['memory']).data) || hasAt((memory as OlderNodeView['memory']).index));

const isOlder = (n: OlderNodeView): boolean => typeof n === 'object' && n !== null && ('sampledAt' in n || hasAt(n.rates) || memoryHasAt(n.memory));

function withoutAt<T extends object>(part: T & { at?: unknown }): T {
  const { at: _arrivedAt, ...rest } = part;
  return rest as T;
}

/** Memory figures without their arrival time; stale as today's engine says it of a node not connected. */
function upgradeUse(use: WithAt<MemoryUse>, connected: boolean): MemoryUse | null {
  return use && { ...withoutAt<MemoryUse>(use), stale: !connected };
}

function upgradeNode({ sampledAt: _polledAt, ...node }: OlderNodeView): NodeView {
  const rates = hasAt(node.rates) ? withoutAt<NonNullable<NodeView['rates']>>(node.rates) : node.rates;
  const connected = node.lastSeenAt == null;
  const memory = memoryHasAt(node.memory) ? { data: upgradeUse(node.memory.data, connected), index: upgradeUse(node.memory.index, connected) } : node.memory;
  return { ...node, rates, memory } as NodeView;
}

/** The cluster total without the arrival time of its newest report (`contributing` says how current it is). */
function upgradeTotal<T extends Rates | null | undefined>(rates: T): T {
  return hasAt(rates) ? (withoutAt<Rates>(rates as Rates & { at?: unknown }) as T) : rates;
}

/** The connection without the time of the newest event (every report moved it). */
function upgradeConnection<T extends ConnectionView | undefined>(connection: T): T {
  const stream: unknown = connection?.eventStream;
  if (!connection || typeof stream !== 'object' || stream === null || !('lastEventAt' in stream)) return connection;
  const { lastEventAt: _newestEvent, ...eventStream } = stream as ConnectionView['eventStream'] & { lastEventAt?: unknown };
  return { ...connection, eventStream };
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
 * `rates.stale`, which those lines carry too. Their memory figures carried the arrival time too (`memory.*.at`):
 * dropped the same way, with `stale` set as today's engine sets it for a node not connected (`lastSeenAt`; a node
 * connected but missing from a refresh was not told apart then). The cluster total (`rates` of a snapshot or
 * delta) carried its newest report's arrival time as well, and the connection the newest event's
 * (`connection.eventStream.lastEventAt`): both dropped, as today's engine keeps them to itself. Inputs never
 * changed shape.
 */
export function upgradeLine(line: RecordingLine): RecordingLine {
  if (line.kind === 'snapshot') {
    const snapshot = upgradeParts(line.snapshot);
    return snapshot === line.snapshot ? line : { ...line, snapshot };
  }
  if (line.kind === 'delta') {
    const delta = upgradeParts(line.delta);
    return delta === line.delta ? line : { ...line, delta };
  }
  return line;
}

/** The parts a snapshot and a delta share, in today's shape; the same object when none was older. */
function upgradeParts<P extends { nodes?: NodeView[]; rates?: Rates | null; connection?: ConnectionView }>(part: P): P {
  const nodes = upgradeNodes(part.nodes);
  const rates = upgradeTotal(part.rates);
  const connection = upgradeConnection(part.connection);
  if (nodes === part.nodes && rates === part.rates && connection === part.connection) return part;
  return { ...part, ...(nodes ? { nodes } : {}), ...(rates !== undefined ? { rates } : {}), ...(connection ? { connection } : {}) };
}
