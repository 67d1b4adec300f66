import type { ClusterEvent } from '../../../../../native-mgm/index.js';
import { encodeTextWords } from '../../../../../native-mgm/index.js';
import { parseEventRecord } from '../../../../../native-mgm/events/parse-event.js';
import type { TrackerListener } from '../../../cluster/cluster-tracker.js';
import { PolledCluster, quietListener } from '../../../test/tracker-fixture.js';

/**
 * An event record exactly as the server writes it on the event stream (spec §6.3: `type`, `time=0`,
 * `source_nodeid`, then the §6.6 table's fields in order), parsed by the client's own record parser.
 */
export function wire(at: number, record: string): ClusterEvent {
  const pairs = record
    .split('\n')
    .filter((l) => l !== 'log event reply' && l !== '')
    .map((l) => {
      const i = l.indexOf('=');
      return [l.slice(0, i), l.slice(i + 1)] as const;
    });
  return parseEventRecord(pairs, at);
}

/** A text event (InfoEvent 49 / WarningEvent 46): the message's bytes packed in words, each followed by a space (§6.3). */
export function textRecord(type: 46 | 49, source: number, text: string): string {
  return `log event reply\ntype=${type}\ntime=0\nsource_nodeid=${source}\ndata=${encodeTextWords(text).map((w) => `${w >>> 0} `).join('')}\n`;
}

/** ArbitState/ArbitResult `code`: the low 16 bits the result, the high 16 an internal state number (§6.7). */
export const arbitCode = (state: number, result: number): number => state * 65536 + result;

/** A 4-data-node cluster (groups {1,2}, {3,4}, mgmd 5) fed wire records and polls at chosen times. */
export class WireCluster extends PolledCluster {
  constructor(listener: TrackerListener = quietListener) {
    super(4, {}, listener);
  }

  at(t: number, record: string): this {
    this.tracker.apply({ kind: 'event', t, event: wire(t, record) });
    return this;
  }

  /** A node's fall and restart as `get status` and the STARTUP events show it (§8.3), from `t` on, a phase a second. */
  restart(node: number, t: number, phases: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8, 101]): number {
    this.at(t, `log event reply\ntype=10\ntime=0\nsource_nodeid=${node}\nversion=589824\n`);
    let now = t;
    for (const phase of phases) {
      now += 1000;
      this.at(now, `log event reply\ntype=13\ntime=0\nsource_nodeid=${node}\nphase=${phase}\nstarttype=2\n`);
    }
    now += 1000;
    this.at(now, `log event reply\ntype=11\ntime=0\nsource_nodeid=${node}\nversion=589824\n`);
    this.set(node, 'STARTED').poll(now + 100);
    return now;
  }
}
