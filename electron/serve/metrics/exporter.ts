import { collectDefaultMetrics, Registry } from 'prom-client';
import type { EngineHandlers } from '../../contract/page-safe/api.js';
import { visibleLine, visibleText } from '../../contract/page-safe/outside-text.js';
import type { ClusterSummary } from '../../contract/schemas/snapshot.js';
import { buildInfoFamily } from './build-info.js';
import { backupFamilies } from './backup-families.js';
import { clusterFamilies } from './cluster-families.js';
import { familyMaker, type ClusterScrape } from './family.js';
import { maintenanceFamilies } from './maintenance-families.js';
import { incidentFamilies } from './incident-families.js';
import { ndbinfoFamilies } from './ndbinfo-families.js';
import { nodeFamilies } from './node-families.js';
import { securityFamilies } from './security-families.js';
import { statisticsFamilies } from './statistics-families.js';

export type ScrapeResult = { ok: true; body: string } | { ok: false; status: 404; message: string };

export interface MetricsExporter {
  readonly contentType: string;
  /** The exposition of every watched cluster, or of the one named (by name or id) in `cluster`. */
  scrape(cluster?: string): Promise<ScrapeResult>;
}

const wanted = (c: ClusterSummary, cluster: string | undefined): boolean => cluster === undefined || c.name === cluster || c.clusterId === cluster;

/**
 * The `cluster` label is the cluster's name; two watched clusters of one name get their ids added, since the same
 * label set twice would merge their series (and add their counters up).
 */
function clusterLabels(all: readonly ClusterSummary[]): Map<string, string> {
  const named = new Map<string, number>();
  for (const c of all) named.set(c.name, (named.get(c.name) ?? 0) + 1);
  return new Map(all.map((c) => [c.clusterId, (named.get(c.name) ?? 0) > 1 ? `${c.name} (${c.clusterId})` : c.name]));
}

/**
 * Prometheus exposition of the engine's current state (prom-client, registries of our own so nothing global
 * leaks in). Nothing here talks to a cluster: a scrape reads the engine's snapshots and running totals, so it
 * answers at once even while a management server is stalled. Every family carries a `cluster` label, and
 * `?cluster=` narrows a scrape to one cluster for setups that give each cluster its own job.
 */
export function createMetricsExporter(handlers: EngineHandlers): MetricsExporter {
  const state = new Registry();
  const make = familyMaker(state);
  // One recorder per group of families, each in its file; a new group is a file of its own added here.
  const recorders = [nodeFamilies(make), statisticsFamilies(make), clusterFamilies(make), securityFamilies(make), ndbinfoFamilies(make), maintenanceFamilies(make), incidentFamilies(make), backupFamilies(make)];
  const buildInfo = buildInfoFamily(make);
  // The process's own figures (CPU, memory, event-loop lag) live apart: they are counted, never reset per scrape.
  const processRegistry = new Registry();
  collectDefaultMetrics({ register: processRegistry });
  const exposed = Registry.merge([state, processRegistry]);

  const fill = async (cluster: string | undefined): Promise<ScrapeResult> => {
    const { version } = await handlers.getAppInfo({});
    const all = await handlers.listClusters({});
    const labels = clusterLabels(all);
    const clusters = all.filter((c) => wanted(c, cluster));
    if (cluster !== undefined && clusters.length === 0) return { ok: false, status: 404, message: `no cluster named "${visibleLine(cluster)}" is watched` };
    const scrapes: ClusterScrape[] = await Promise.all(
      clusters.map(async (c) => {
        const snapshot = await handlers.getSnapshot({ clusterId: c.clusterId });
        const [counters, links] = await Promise.all([
          handlers.getCounters({ clusterId: c.clusterId }),
          // Asked for only where the snapshot says links were read: without an SQL source there are none to ask.
          snapshot.ndbinfo?.links ? handlers.getLinks({ clusterId: c.clusterId }) : null,
        ]);
        return { cluster: labels.get(c.clusterId) ?? c.name, snapshot, counters, links };
      }),
    );
    // Each scrape starts empty, so nodes and clusters that went away stop being exported.
    state.resetMetrics();
    buildInfo(version);
    for (const scrape of scrapes) for (const record of recorders) record(scrape);
    // prom-client escapes `\\`, `"` and LF in a label value and nothing else, and the values carry what servers and
    // scripts named (hosts, threads, runs): the outside-text rule shows the rest, its backslash escaped as a label's.
    return { ok: true, body: visibleText(await exposed.metrics(), '\\\\') };
  };

  // Scrapes are serialised: each one resets and refills the same families, so two must not interleave.
  let last: Promise<unknown> = Promise.resolve();
  const scrape = (cluster?: string): Promise<ScrapeResult> => {
    const run = last.then(() => fill(cluster));
    last = run.catch(() => undefined);
    return run;
  };

  return { contentType: exposed.contentType, scrape };
}
