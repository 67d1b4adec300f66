import { Counter, Gauge, type Registry } from 'prom-client';
import type { ClusterCounters } from '../../contract/schemas/counters.js';
import type { NdbinfoLinks } from '../../contract/schemas/ndbinfo.js';
import type { ClusterSnapshot } from '../../contract/schemas/snapshot.js';

/** What one scrape knows about one cluster; every family reads from it, none asks the engine itself. */
export interface ClusterScrape {
  /** The `cluster` label: the cluster's name as the user gave it. */
  cluster: string;
  snapshot: ClusterSnapshot;
  counters: ClusterCounters;
  /** The links between nodes (`getLinks`: not in the snapshot); null without an SQL source. */
  links: NdbinfoLinks | null;
}

/** A group of metric families that fills itself from one cluster's scrape. */
export type FamilyRecorder = (scrape: ClusterScrape) => void;

const snaked = new Map<string, string>();

/**
 * Label values in snake_case ("SINGLE USER MODE" → single_user_mode, simpleReads → simple_reads,
 * failed-over → failed_over), so PromQL matchers never need quoting tricks or case-insensitive regexes. Only
 * enum words come here (a few dozen), and a 255-node scrape asks thousands of times: remembered.
 */
export function snake(value: string): string {
  let done = snaked.get(value);
  if (done === undefined) {
    done = value
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .toLowerCase();
    snaked.set(value, done);
  }
  return done;
}

/** Family constructors bound to one registry; every family must say what it is (HELP). */
export function familyMaker(registry: Registry) {
  return {
    gauge: (name: string, help: string, labelNames: string[]): Gauge => new Gauge({ name, help, labelNames, registers: [registry] }),
    counter: (name: string, help: string, labelNames: string[]): Counter => new Counter({ name, help, labelNames, registers: [registry] }),
  };
}

export type FamilyMaker = ReturnType<typeof familyMaker>;
