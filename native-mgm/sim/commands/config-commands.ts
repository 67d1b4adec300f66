import { encodeConfigBase64, type ClusterConfig, type ConfigNode, type ConfigNodeType } from '../../config/index.js';
import { MAX_NODE_ID } from '../state/topology.js';
import { reply, resultReply } from '../wire/reply.js';
import { intArg, stringArg, type CommandContext, type CommandHandler } from './context.js';

function configOf(ctx: CommandContext): ClusterConfig {
  const config = ctx.mgmd.model.config;
  if (!config) throw new Error('the simulator serves no configuration before it listens');
  return config;
}

/** `from_node` refusals, with the texts of MgmtSrvr::get_packed_config_from_node (spec §4.18.1, trailing space). */
function fromNodeError(ctx: CommandContext, config: ClusterConfig, fromNode: number): string | null {
  if (fromNode > MAX_NODE_ID) return `Nodeid ${fromNode} is greater than max nodeid ${MAX_NODE_ID}. `;
  if (fromNode === 0) return null;
  const node = config.nodes.find((n) => n.nodeId === fromNode);
  if (!node) return `Nodeid ${fromNode} does not exist. `;
  if (node.type !== 'NDB') return `Node ${fromNode} is not a data node. `;
  if ((ctx.mgmd.model.data.get(fromNode)?.status ?? 'NO_CONTACT') === 'NO_CONTACT') return `Data node ${fromNode} is not alive. `;
  return null;
}

/**
 * The packed v2 configuration (spec §4.18.1) of the simulated cluster, base64 with the server's line breaks
 * (§4.18), also for `get config`, which a real 8.0+ server may answer in v1. `node: N` keeps only the connection
 * sections of node N, as the operator's Go client expects.
 */
function getConfig(ctx: CommandContext): string {
  const config = configOf(ctx);
  const error = fromNodeError(ctx, config, intArg(ctx, 'from_node'));
  if (error) return resultReply('get config reply', error);
  const body = encoded(config, intArg(ctx, 'node'));
  return (
    reply('get config reply', [
      ['result', 'Ok'],
      ['Content-Length', body.length],
      ['Content-Type', 'ndbconfig/octet-stream'],
      ['Content-Transfer-Encoding', 'base64'],
    ]) + `${body}\n`
  );
}

/**
 * Encoding a 255-node cluster's configuration (some 26,000 connection sections) takes a noticeable time, and
 * monitors ask every few seconds: keep the bodies of the configuration being served, per `node` filter.
 */
const BODIES = new WeakMap<ClusterConfig, Map<number, string>>();

function encoded(config: ClusterConfig, node: number): string {
  const bodies = BODIES.get(config) ?? new Map<number, string>();
  BODIES.set(config, bodies);
  let body = bodies.get(node);
  if (body === undefined) {
    body = encodeConfigBase64(node > 0 ? { ...config, connections: config.connections.filter((c) => c.nodeId1 === node || c.nodeId2 === node) } : config);
    bodies.set(node, body);
  }
  return body;
}

const SECTION_NAMES: Record<ConfigNodeType, { name: string; aliases: readonly string[] }> = {
  NDB: { name: 'ndbd', aliases: ['DB', 'NDBD'] },
  MGM: { name: 'ndb_mgmd', aliases: ['MGM', 'NDB_MGMD'] },
  API: { name: 'mysqld', aliases: ['API', 'MYSQLD'] },
};

function showConfig(ctx: CommandContext): string {
  const section = stringArg(ctx, 'Section');
  const nodeId = ctx.args.get('NodeId');
  const name = stringArg(ctx, 'Name');
  const matches = (n: ConfigNode): boolean =>
    (section === undefined || SECTION_NAMES[n.type].name === section || SECTION_NAMES[n.type].aliases.includes(section.toUpperCase())) &&
    (nodeId === undefined || n.nodeId === nodeId);
  const lines = configOf(ctx)
    .nodes.filter(matches)
    .map((n) => `[${SECTION_NAMES[n.type].name}]\n${Object.entries(n.params).filter(([k]) => name === undefined || k === name).map(([k, v]) => `${k}=${v}\n`).join('')}`);
  return `show config reply\n${lines.join('')}\n`;
}

/** mgmapi's node type numbers (`nodetype:` of `get nodeid`) and how MgmtSrvr names them in its texts. */
const NODE_TYPES: Record<number, { type: ConfigNodeType; text: string }> = {
  0: { type: 'NDB', text: 'ndbd(NDB)' },
  1: { type: 'API', text: 'mysqld(API)' },
  2: { type: 'MGM', text: 'ndb_mgmd(MGM)' },
};
/** NDB_MGM_ALLOCID_ERROR (number UNVERIFIED), sent only to a client that asked with `log_event`. */
const ALLOCID_ERROR = 1101;

/**
 * `get nodeid` as the server allocates (spec §4.22): a free configured slot of the requested type, or the one
 * asked for, is reserved for this session until it ends; one in use or held by another session is refused.
 */
function getNodeId(ctx: CommandContext): string {
  const model = ctx.mgmd.model;
  const config = configOf(ctx);
  const wanted = NODE_TYPES[intArg(ctx, 'nodetype', -1)];
  const requested = intArg(ctx, 'nodeid');
  const fail = (text: string): string =>
    reply('get nodeid reply', [['result', text], ...(ctx.args.has('log_event') ? ([['error_code', ALLOCID_ERROR]] as const) : [])]);
  if (!wanted) return fail(`Unknown node type ${intArg(ctx, 'nodetype', -1)}.`);
  const inUse = (n: ConfigNode): boolean => {
    const holder = model.nodeIds.holder(n.nodeId);
    if (holder !== undefined) return holder !== ctx.session;
    if (n.type === 'API') return model.api.get(n.nodeId)?.connected ?? false;
    if (n.type === 'MGM') return model.mgm.get(n.nodeId)?.running ?? false;
    return (model.data.get(n.nodeId)?.status ?? 'NO_CONTACT') !== 'NO_CONTACT';
  };
  let node: ConfigNode | undefined;
  if (requested > 0) {
    node = config.nodes.find((n) => n.nodeId === requested);
    if (!node) return fail(`No node defined with id=${requested} in config file.`);
    if (node.type !== wanted.type) {
      const configured = Object.values(NODE_TYPES).find((t) => t.type === node!.type)!;
      return fail(`Id ${requested} configured as ${configured.text}, connect attempted as ${wanted.text}.`);
    }
    if (inUse(node)) return fail(`Id ${requested} already allocated by another node.`);
  } else {
    node = config.nodes.find((n) => n.type === wanted.type && !inUse(n));
    if (!node) return fail(`No free node id found for ${wanted.text}.`);
  }
  model.nodeIds.reserve(node.nodeId, ctx.session);
  return reply('get nodeid reply', [
    ['nodeid', node.nodeId],
    ['result', 'Ok'],
  ]);
}

export const CONFIG_COMMANDS: Record<string, CommandHandler> = {
  'get config': getConfig,
  'get config_v2': getConfig,
  'show config': showConfig,
  'get nodeid': getNodeId,
  'show variables': (ctx) => reply('show variables reply', [['node_id', ctx.mgmd.nodeId], ['daemon', 0], ['simulator', 1]]),
};
