import type { ClusterModel } from '../cluster-model.js';
import { MAX_NODE_ID } from '../topology.js';
import { reply, resultReply } from '../wire/reply.js';
import { intArg, stringArg, type CommandContext, type CommandHandler } from './context.js';

/** MySQL's base64 encoder puts an LF between lines of 76 characters (none at the end); they count in Content-Length (§4.18). */
const BASE64_LINE = 76;

interface Section {
  name: 'ndbd' | 'ndb_mgmd' | 'mysqld';
  aliases: readonly string[];
  params: Record<string, string | number>;
}

/** The configuration the simulated cluster would have in config.ini, one section per node. */
function sections(model: ClusterModel): Section[] {
  return [
    ...[...model.mgm.values()].map((m): Section => ({ name: 'ndb_mgmd', aliases: ['MGM'], params: { NodeId: m.id, HostName: m.address, PortNumber: 1186 } })),
    ...[...model.data.values()].map((d): Section => ({
      name: 'ndbd',
      aliases: ['DB'],
      params: { NodeId: d.id, HostName: d.address, NodeGroup: d.nodeGroup, NoOfReplicas: model.replicas, DataMemory: 2147483648 },
    })),
    ...[...model.api.values()].map((a): Section => ({ name: 'mysqld', aliases: ['API'], params: { NodeId: a.id, HostName: a.connected ? a.address : '' } })),
  ];
}

function wrapBase64(bytes: Buffer): string {
  const b64 = bytes.toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += BASE64_LINE) lines.push(b64.slice(i, i + BASE64_LINE));
  return lines.join('\n');
}

/**
 * Framing only: the body is base64 with the server's line breaks, but what it decodes to is the simulator's own
 * text, not NDB's packed configuration format (decoding is out of the spec's scope).
 */
function getConfig(ctx: CommandContext): string {
  const fromNode = intArg(ctx, 'from_node');
  if (fromNode > MAX_NODE_ID) return resultReply('get config reply', `Nodeid ${fromNode} is greater than max nodeid ${MAX_NODE_ID}. `);
  const text = sections(ctx.mgmd.model)
    .map((s) => `[${s.name}]\n${Object.entries(s.params).map(([k, v]) => `${k}=${v}\n`).join('')}`)
    .join('');
  const body = wrapBase64(Buffer.concat([Buffer.from('NDBCONFV'), Buffer.from(text)]));
  return (
    reply('get config reply', [
      ['result', 'Ok'],
      ['Content-Length', body.length],
      ['Content-Type', 'ndbconfig/octet-stream'],
      ['Content-Transfer-Encoding', 'base64'],
    ]) + `${body}\n`
  );
}

function showConfig(ctx: CommandContext): string {
  const section = stringArg(ctx, 'Section');
  const nodeId = ctx.args.get('NodeId');
  const name = stringArg(ctx, 'Name');
  const lines = sections(ctx.mgmd.model)
    .filter((s) => section === undefined || s.name === section || s.aliases.includes(section))
    .filter((s) => nodeId === undefined || s.params['NodeId'] === nodeId)
    .map((s) => `[${s.name}]\n${Object.entries(s.params).filter(([k]) => name === undefined || k === name).map(([k, v]) => `${k}=${v}\n`).join('')}`);
  return `show config reply\n${lines.join('')}\n`;
}

export const CONFIG_COMMANDS: Record<string, CommandHandler> = {
  'get config': getConfig,
  'get config_v2': getConfig,
  'show config': showConfig,
  'show variables': (ctx) => reply('show variables reply', [['node_id', ctx.mgmd.nodeId], ['daemon', 0], ['simulator', 1]]),
};
