import { buildClusterConfig, type NodeSpec } from './build-config.js';
import type { ClusterConfig, ConfigNodeType, ConfigParams } from './cluster-config.js';
import { NO_NODEGROUP, paramByName, type ConfigParam, type ConfigSectionType, type ConfigValue } from './params.js';

/** A config.ini that cannot be used; `line` is 1-based. */
export class ConfigIniError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`config.ini line ${line}: ${message}`);
    this.name = 'ConfigIniError';
  }
}

/** Section names and their aliases, as ConfigInfo's m_sectionNameAliases. */
const SECTIONS: Record<string, ConfigNodeType | 'TCP' | 'SYSTEM'> = {
  ndbd: 'NDB',
  db: 'NDB',
  ndb_mgmd: 'MGM',
  mgm: 'MGM',
  mysqld: 'API',
  api: 'API',
  tcp: 'TCP',
  system: 'SYSTEM',
};
const SECTION_OF: Record<ConfigNodeType | 'TCP', ConfigSectionType> = { NDB: 'DB', API: 'API', MGM: 'MGM', TCP: 'TCP' };
const ENUMS: Record<string, Record<string, number>> = {
  Arbitration: { disabled: 0, default: 1, waitexternal: 2 },
  DefaultOperationRedoProblemAction: { abort: 0, queue: 1 },
};
const SUFFIX: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

interface Section {
  kind: ConfigNodeType | 'TCP' | 'SYSTEM';
  isDefault: boolean;
  line: number;
  params: ConfigParams;
}

/**
 * Reads a config.ini as ndb_mgmd does for the parts the simulator models: `[ndbd]`, `[ndb_mgmd]`, `[mysqld]`/`[api]`
 * with their `default` sections, `[tcp default]` and `[system]`; `Name=value` or `Name: value`, `#`/`;` comments,
 * K/M/G suffixes, Y/N booleans. Node ids left out are given the next free ones; data nodes without NodeGroup are
 * put in node groups of NoOfReplicas in node id order, as the server does at an initial start.
 */
export function parseConfigIni(text: string): ClusterConfig {
  const sections: Section[] = [];
  let current: Section | null = null;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    const s = raw.replace(/[#;].*$/, '').trim();
    if (s === '') return;
    const header = /^\[\s*([A-Za-z_]+)(\s+default)?\s*\]$/i.exec(s);
    if (header) {
      const kind = SECTIONS[header[1]!.toLowerCase()];
      if (!kind) throw new ConfigIniError(`unknown section [${header[1]}]`, line);
      current = { kind, isDefault: header[2] !== undefined, line, params: {} };
      sections.push(current);
      return;
    }
    const kv = /^([A-Za-z0-9_]+)\s*[=:]\s*(.*)$/.exec(s);
    if (!kv) throw new ConfigIniError(`cannot read ${JSON.stringify(s)}`, line);
    if (!current) throw new ConfigIniError('parameter outside a section', line);
    const section: Section = current;
    if (section.kind === 'SYSTEM') {
      if (kv[1]!.toLowerCase() !== 'name') throw new ConfigIniError(`[system] parameter ${kv[1]} is not modelled`, line);
      section.params['Name'] = kv[2]!.trim();
      return;
    }
    const param = paramByName(section.kind === 'TCP' ? 'connection' : 'node', kv[1]!, SECTION_OF[section.kind]);
    if (!param || !(SECTION_OF[section.kind] in param.defaults)) {
      throw new ConfigIniError(`[${section.kind}] has no parameter ${kv[1]}`, line);
    }
    section.params[param.name] = valueOf(param, kv[2]!.trim(), line);
  });

  const defaults = (kind: Section['kind']): ConfigParams =>
    Object.assign({}, ...sections.filter((s) => s.kind === kind && s.isDefault).map((s) => s.params)) as ConfigParams;
  const nodeSections = sections.filter((s) => !s.isDefault && s.kind !== 'TCP' && s.kind !== 'SYSTEM');
  const used = new Set<number>();
  for (const s of nodeSections) {
    const id = s.params['NodeId'];
    if (id === undefined) continue;
    if (typeof id !== 'number' || id < 1 || id > 255) throw new ConfigIniError(`NodeId ${id} out of range 1..255`, s.line);
    if (used.has(id)) throw new ConfigIniError(`duplicate NodeId ${id}`, s.line);
    used.add(id);
  }
  let next = 1;
  const nodes: NodeSpec[] = nodeSections.map((s) => {
    let id = s.params['NodeId'] as number | undefined;
    if (id === undefined) {
      while (used.has(next)) next++;
      id = next;
      used.add(id);
    }
    next = id + 1;
    const type = s.kind as ConfigNodeType;
    if (type === 'NDB' && id > 144) throw new ConfigIniError(`data node id ${id} above 144`, s.line);
    return { nodeId: id, type, params: { ...defaults(type), ...s.params, NodeId: id } };
  });
  if (!nodes.some((n) => n.type === 'MGM')) throw new ConfigIniError('no [ndb_mgmd] section', 1);
  assignNodeGroups(nodes.filter((n) => n.type === 'NDB'));
  const name = sections.find((s) => s.kind === 'SYSTEM')?.params['Name'];
  return buildClusterConfig({ name: typeof name === 'string' ? name : 'MC_SIMULATED', nodes, tcp: defaults('TCP') });
}

function valueOf(param: ConfigParam, text: string, line: number): ConfigValue {
  if (param.type === 'string') return text;
  const e = ENUMS[param.name];
  if (e) {
    const v = e[text.toLowerCase()];
    if (v === undefined) throw new ConfigIniError(`${param.name} must be one of ${Object.keys(e).join(', ')}`, line);
    return v;
  }
  if (param.unit === 'bool') {
    if (/^(y|yes|true|1)$/i.test(text)) return 1;
    if (/^(n|no|false|0)$/i.test(text)) return 0;
    throw new ConfigIniError(`${param.name} must be Y or N`, line);
  }
  const m = /^(\d+)\s*([kKmMgG])?$/.exec(text);
  if (!m) throw new ConfigIniError(`${param.name} must be a number, got ${JSON.stringify(text)}`, line);
  const v = Number(m[1]) * (m[2] ? SUFFIX[m[2].toLowerCase()]! : 1);
  if (param.type === 'int' && v > 0xffffffff) throw new ConfigIniError(`${param.name} ${text} is above 4294967295`, line);
  return v;
}

/** Data nodes without NodeGroup fill node groups of NoOfReplicas in node id order, after the explicit ones. */
function assignNodeGroups(data: NodeSpec[]): void {
  const sorted = [...data].sort((a, b) => a.nodeId - b.nodeId);
  const taken = new Map<number, number>();
  for (const n of sorted) {
    const g = n.params['NodeGroup'];
    if (typeof g === 'number' && g !== NO_NODEGROUP) taken.set(g, (taken.get(g) ?? 0) + 1);
  }
  let group = 0;
  for (const n of sorted) {
    if (n.params['NodeGroup'] !== undefined) continue;
    const replicas = Number(n.params['NoOfReplicas'] ?? 2);
    while ((taken.get(group) ?? 0) >= replicas) group++;
    n.params['NodeGroup'] = group;
    taken.set(group, (taken.get(group) ?? 0) + 1);
  }
}
