import { ConfigState } from '../../facts/config/config-state.js';
import type { TrackerInput } from '../tracker-input.js';
import type { ClusterLog } from './cluster-log.js';
import type { Room } from './room.js';

/** The configuration as last read; a new generation is one entry in the event log. Other rooms read `state`. */
export class ConfigRoom implements Room {
  readonly state = new ConfigState();

  constructor(private readonly log: ClusterLog) {}

  input(input: TrackerInput): void {
    if (input.kind !== 'config') return;
    const note = this.state.apply(input.config, input.t);
    if (note) this.log.note(note);
  }
}
