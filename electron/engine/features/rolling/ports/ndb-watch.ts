import { EventStream, type EventStreamOptions } from '../../../../../native-mgm/client/event-stream.js';
import type { ClusterEvent } from '../../../../../native-mgm/index.js';
import type { NdbFacts } from '../types.js';
import type { ArbitSeen } from './snapshot-facts.js';

/** ArbitState result codes (spec §6.7, the low 16 bits): started, failed, exit. */
const ARBIT_STARTED = 31;
const ARBIT_GONE = new Set([32, 33]);

/**
 * The events the NDB checks need and the monitor does not subscribe to: GlobalCheckpointStarted/Completed (CHECKPOINT
 * thresholds 9 and 10, spec §6.6.2: one pair per global checkpoint, kept out of the monitor's own stream and event
 * log) and ArbitState (NODERESTART 6), on an event connection of the rolling restart's own, open while a plan is.
 */
export class NdbEventWatch {
  private readonly stream: EventStream;
  private gci: number | null = null;
  private completedAt: number | null = null;
  private liveSince: number | null = null;
  private arbit: ArbitSeen | null = null;
  private lastError: string | null = null;

  constructor(options: Omit<EventStreamOptions, 'filter'>, private readonly now: () => number = Date.now) {
    this.stream = new EventStream({ ...options, filter: { CHECKPOINT: 10, NODERESTART: 6 } });
    this.stream.events.on('event', (e) => this.take(e));
    this.stream.events.on('state', (s) => {
      if (s.status === 'connected') this.liveSince ??= this.now();
      else {
        this.liveSince = null;
        this.lastError = s.lastError ?? null;
      }
    });
    this.stream.start().catch((err: unknown) => {
      this.lastError = err instanceof Error ? err.message : String(err);
    });
  }

  /** The last global checkpoint completed since the stream was live; unknown while it is not. */
  gcp(): NdbFacts['gcp'] {
    if (this.liveSince === null) return { known: false, why: `the checkpoint events are not subscribed${this.lastError ? ` (${this.lastError})` : ''}` };
    return { known: true, value: { gci: this.gci, completedAt: this.completedAt, watchedSince: this.liveSince } };
  }

  /** The last ArbitState seen (null: none since watching began). */
  arbitState(): ArbitSeen | null {
    return this.arbit;
  }

  close(): void {
    this.stream.close();
  }

  private take(e: ClusterEvent): void {
    const f = e.fields;
    if (e.name === 'GlobalCheckpointCompleted') {
      this.gci = f.gci ?? null;
      this.completedAt = e.receivedAt;
    } else if (e.name === 'ArbitState') {
      const code = (f.code ?? 0) & 0xffff;
      if (code === ARBIT_STARTED) this.arbit = { nodeId: f.arbit_node ?? null, code };
      else if (ARBIT_GONE.has(code)) this.arbit = { nodeId: null, code };
    }
  }
}
