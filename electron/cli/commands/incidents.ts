import { basename } from 'node:path';
import type { Command } from 'commander';
import { incidentLine } from '../../contract/page-safe/incident-words.js';
import { escapedJson } from '../../contract/page-safe/outside-text.js';
import type { Incident, IncidentList } from '../../contract/schemas/incidents.js';
import { getApi } from '../../serve/runs-client.js';
import { printText } from '../format/terminal-text.js';
import { endpointFrom, withEndpoint, type EndpointOpts } from '../serve-endpoint.js';
import { parseDuration } from './maintenance.js';

interface IncidentOpts extends EndpointOpts {
  since?: number;
}

// Full ISO times, as every other command prints them (`alerts`, `events`, `backup`).
const iso = (t: number): string => new Date(t).toISOString();
const at = (t: number): string => iso(t).slice(11, 23);

/** An incident, its evidence and its other possible causes, as lines under its summary. */
export function incidentText(i: Incident): string {
  const lines = [incidentLine(i, iso)];
  for (const e of i.cause.evidence) lines.push(`    ${at(e.at)}  ${e.source.padEnd(7)}  ${e.text}`);
  for (const o of i.otherCauses ?? []) {
    lines.push(`  also possible: ${o.kind}: ${o.text}`);
    for (const e of o.evidence) lines.push(`    ${at(e.at)}  ${e.source.padEnd(7)}  ${e.text}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Incidents of recordings: each played through the engine at full speed, so they are those live derived. */
async function fromRecordings(files: readonly string[]): Promise<Incident[]> {
  const { createReplayEngine } = await import('../../engine/recording/replay.js');
  const all: Incident[] = [];
  for (const file of files) {
    const engine = await createReplayEngine({ file, speed: Infinity });
    try {
      const played = await engine.finished;
      if (played.problems.length > 0) printText(process.stderr, `ndbtop incidents: ${basename(file)}: ${played.unreadable} unreadable lines skipped\n`);
      for (const c of await engine.handlers.listClusters({})) all.push(...(await engine.handlers.getIncidents({ clusterId: c.clusterId })).incidents);
    } finally {
      await engine.close();
    }
  }
  return all.sort((a, b) => b.noticedAt - a.noticedAt);
}

/**
 * `ndbtop incidents [FILE…] [--url URL] [--since 6h] [--json]`: why data nodes fell, newest first, from recordings
 * (played through the engine) or from a serving ndbtop (`GET /api/incidents`).
 */
export function registerIncidents(program: Command): void {
  withEndpoint(program.command('incidents').description('why data nodes fell: each unplanned failure with its cause, evidence and restart, from a serving ndbtop or from recordings'), 'print {incidents: [...]} as JSON')
    .argument('[files...]', 'recordings (ndbtop record / --record) to read instead of a serving ndbtop')
    .option('--since <time>', 'only incidents noticed within this long before now (90s, 30m, 6h, 2d)', parseDuration)
    .action(async (files: string[], opts: IncidentOpts) => {
      const sinceMs = opts.since === undefined ? undefined : Date.now() - opts.since;
      const incidents = files.length > 0 ? await fromRecordings(files) : (await getApi<IncidentList>(endpointFrom(opts), `incidents${sinceMs === undefined ? '' : `?sinceMs=${sinceMs}`}`)).incidents;
      const shown = incidents.filter((i) => sinceMs === undefined || i.noticedAt >= sinceMs);
      if (opts.json) return void process.stdout.write(`${escapedJson({ incidents: shown })}\n`);
      if (shown.length === 0) return void process.stdout.write('no incidents\n');
      printText(process.stdout, shown.map(incidentText).join('\n'));
    });
}
