import { z } from 'zod';

const NodeId = z.number().int().min(1).max(255);

/** Operator actions the UI may request; the engine refuses all of them unless actions are enabled. */
export const OperatorActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('stop'), nodeId: NodeId, abort: z.boolean().default(false) }),
  z.object({ kind: z.literal('start'), nodeId: NodeId }),
  z.object({
    kind: z.literal('restart'),
    nodeId: NodeId,
    initial: z.boolean().default(false),
    noStart: z.boolean().default(false),
    abort: z.boolean().default(false),
  }),
  z.object({ kind: z.literal('startBackup') }),
  z.object({ kind: z.literal('abortBackup'), backupId: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('enterSingleUser'), apiNodeId: NodeId }),
  z.object({ kind: z.literal('exitSingleUser') }),
]);

/** What the confirmation dialog says before anything is sent; asked again on every change while it is open. */
export const ActionPreviewSchema = z.object({
  description: z.string(),
  safe: z.boolean(),
  /** False when the action cannot be done as things are now (the node is gone): the dialog disables Confirm. */
  possible: z.boolean(),
  /** Why it is unsafe or impossible, e.g. "node group 0 will have no live node: the cluster will shut down". */
  warnings: z.array(z.string()),
  /** What will happen, in words, e.g. "node 2 is the master: a new master will be elected". */
  consequences: z.array(z.string()),
  allowed: z.boolean(),
});

export const ActionResultSchema = z.object({
  ok: z.boolean(),
  /** The management server's own words on failure (e.g. `5028-Node shutdown would cause system crash…`). */
  message: z.string(),
});

export type OperatorAction = z.input<typeof OperatorActionSchema>;
export type ParsedOperatorAction = z.output<typeof OperatorActionSchema>;
export type ActionPreview = z.infer<typeof ActionPreviewSchema>;
export type ActionResult = z.infer<typeof ActionResultSchema>;
