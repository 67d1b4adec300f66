import { z } from 'zod';

const Millis = z.number().int().nonnegative();
const NodeIds = z.array(z.number().int().min(1).max(255));

/** One data node's restart in a round: from leaving the up state until it was up again. */
export const NodeRestartSchema = z.object({
  nodeId: z.number().int().min(1).max(255),
  from: Millis,
  /** null while the node is still down or starting. */
  to: Millis.nullable(),
  /** The node was already restarting when ndbtop first saw it: `from` is then, and the restart began earlier. */
  underWayAtConnect: z.boolean().optional(),
});

/**
 * The engine's own record of the current (or just finished) rolling restart, kept from every status change it saw,
 * so progress, order and ETA never depend on how much of the timeline a page asked for.
 */
export const RollingRestartSchema = z.object({
  /**
   * 'observed': ndbtop saw data nodes leave the up state and come back, whoever restarted them; 'planned': a
   * rolling-restart conductor drives the round (its nodes restart in its order).
   */
  source: z.enum(['observed', 'planned']),
  startedAt: Millis,
  /** Each node's restart in this round, in the order they went down. */
  restarts: z.array(NodeRestartSchema),
  /** Restarted in this round and up again. */
  done: NodeIds,
  /** Data nodes not up now. */
  inProgress: NodeIds,
  /** Data nodes up and not restarted yet in this round. */
  remaining: NodeIds,
  /** Suggested next: none while a restart is under way, else the lowest remaining node whose node group can lose it. */
  next: z.number().int().min(1).max(255).nullable(),
  complete: z.boolean(),
  /** The round's time so far (waits between restarts included) over the restarts finished; null before the first. */
  paceMs: z.number().int().nonnegative().nullable(),
  /** When the round should be over at that pace, counted from the last restart finished; null when unknown or done. */
  etaAt: Millis.nullable(),
});

export type NodeRestart = z.infer<typeof NodeRestartSchema>;
export type RollingRestart = z.infer<typeof RollingRestartSchema>;
