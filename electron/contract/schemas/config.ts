import { z } from 'zod';
import { NodeTypeSchema } from './node.js';

export const ConfigValueSchema = z.union([z.number(), z.string()]);

/** One node as the cluster's configuration lists it; params by config.ini name (unknown keys by number). */
export const ConfigNodeViewSchema = z.object({
  nodeId: z.number().int().min(1).max(255),
  type: NodeTypeSchema,
  hostname: z.string(),
  nodeGroup: z.number().int().nullable(),
  params: z.record(z.string(), ConfigValueSchema),
});

/** What the renderer needs to show a parameter: its unit and the server's default per node type. */
export const ConfigParamInfoSchema = z.object({
  name: z.string(),
  unit: z.enum(['bytes', 'bytes/s', 'ms', 's', 'us', 'bool', '%']).nullable(),
  /** Absent: the node type has no such parameter; null: it has no default. */
  defaults: z.object({ NDB: ConfigValueSchema.nullable().optional(), API: ConfigValueSchema.nullable().optional(), MGM: ConfigValueSchema.nullable().optional() }),
});

/** One difference between two generations; before/after null where the node or parameter did not exist. */
export const ConfigChangeSchema = z.object({
  nodeId: z.number().int().nullable(),
  param: z.string(),
  before: ConfigValueSchema.nullable(),
  after: ConfigValueSchema.nullable(),
});

export const ConfigGenerationChangeSchema = z.object({
  at: z.number().int().nonnegative(),
  fromGeneration: z.number().int(),
  toGeneration: z.number().int(),
  changes: z.array(ConfigChangeSchema),
});

/** The cluster's configuration as last read (get config_v2), with what changed at the last new generation. */
export const ClusterConfigViewSchema = z.object({
  name: z.string(),
  generation: z.number().int(),
  primaryMgmd: z.number().int(),
  receivedAt: z.number().int().nonnegative(),
  nodes: z.array(ConfigNodeViewSchema),
  paramInfo: z.array(ConfigParamInfoSchema),
  lastChange: ConfigGenerationChangeSchema.nullable(),
});

export type ConfigValueView = z.infer<typeof ConfigValueSchema>;
export type ConfigNodeView = z.infer<typeof ConfigNodeViewSchema>;
export type ConfigParamInfo = z.infer<typeof ConfigParamInfoSchema>;
export type ConfigChange = z.infer<typeof ConfigChangeSchema>;
export type ConfigGenerationChange = z.infer<typeof ConfigGenerationChangeSchema>;
export type ClusterConfigView = z.infer<typeof ClusterConfigViewSchema>;
