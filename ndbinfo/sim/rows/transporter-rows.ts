import type { ClusterModel, DataNode } from '../../../native-mgm/sim/index.js';
import { whole, type Row, type RowContext, type TableRows } from './row-context.js';

const ALLOC_CHUNK = 64 * 1024;
const alloc = (bytes: number): number => Math.ceil((bytes + 1) / ALLOC_CHUNK) * ALLOC_CHUNK;

/** How many times the link to `remote` has connected: a data node's, each time its process came back. */
function connectCount(model: ClusterModel, remote: number): number {
  return model.data.get(remote)?.connectCount ?? 1;
}

function nodeLinkRows(model: ClusterModel, node: DataNode, at: number) {
  const totals = model.activity.nodeTotals(node.id);
  return model.activity.linksAt(node, at).map((l) => {
    const used = l.sendBuffer.used;
    const pressed = totals.pressed.get(l.remoteId);
    return {
      link: l,
      common: [l.remoteId, l.status, l.remoteAddress, whole(totals.sent.get(l.remoteId) ?? 0), whole(totals.received.get(l.remoteId) ?? 0), l.status === 'CONNECTED' ? connectCount(model, l.remoteId) : 0],
      // The flags as of the step the counts were last kept at, not this instant's: a row read between the two said
      // overloaded with no episode counted yet.
      pressure: [pressed?.overloaded ? 1 : 0, totals.overloadCount.get(l.remoteId) ?? 0, pressed?.slowdown ? 1 : 0, totals.slowdownCount.get(l.remoteId) ?? 0],
      used,
      maxUsed: Math.max(used, whole(totals.maxSendBuffer.get(l.remoteId) ?? 0)),
    };
  });
}

type NodeLinks = { node: DataNode; rows: ReturnType<typeof nodeLinkRows> };
/**
 * Every node's links at the snapshot's instant, built once for both tables: the engine reads transporters and
 * transporter_details on the same interval, and at 144 data nodes each has ~21,000 rows.
 */
const linksOfSnapshot = new WeakMap<RowContext, readonly NodeLinks[]>();
function linkRows(ctx: RowContext): readonly NodeLinks[] {
  let links = linksOfSnapshot.get(ctx);
  if (!links) {
    links = ctx.nodes.map((node) => ({ node, rows: nodeLinkRows(ctx.model, node, ctx.at) }));
    linksOfSnapshot.set(ctx, links);
  }
  return links;
}

// The simulated cluster runs without TLS between nodes, so `encrypted` (the 8.4 view's last column) is 0.
export const transporters: TableRows = (ctx) => linkRows(ctx).flatMap(({ node, rows }) => rows.map((r): Row => [node.id, ...r.common, ...r.pressure, 0]));

/** One transporter per link (no multi-transporter groups); its receive side is the node's first receive thread. */
export const transporterDetails: TableRows = (ctx) =>
  linkRows(ctx).flatMap(({ node, rows }) =>
    rows.map((r, trpId): Row => {
      const [remote, ...rest] = r.common;
      return [node.id, 0, trpId + 1, remote!, ...rest, ...r.pressure, 0, r.used, r.maxUsed, alloc(r.used), alloc(r.maxUsed)];
    }),
  );
