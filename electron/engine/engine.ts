import type { EngineHandlers } from '../contract/page-safe/api.js';
import { CoreEngine, type CoreConfig } from './core/core-engine.js';
import type { ClusterEntry } from './core/engine-core.js';
import type { EngineHost } from './core/engine-host.js';
import { EngineRequestError } from './core/engine-error.js';
import { coreHandlers } from './core/handlers.js';
import { actionHandlers } from './features/actions/action-service.js';
import { backupHandlers } from './features/backups/backup-service.js';
import { maintenanceHandlers } from './features/alerts/maintenance-service.js';
import { incidentHandlers } from './features/incidents/incident-service.js';
import { profileHandlers } from './features/profiles/profile-service.js';
import type { RollingHost } from './features/rolling/rolling-host.js';
import { rollingHandlers } from './features/rolling/rolling-service.js';
import { RecordingImports, type ReadRuns } from './features/runs/recording-imports.js';
import { runHandlers } from './features/runs/run-service.js';

export { MAX_CLUSTERS } from './core/core-engine.js';

export interface EngineConfig extends CoreConfig {
  /** Plays a recording for an import (`engine.recordings`) (given by the factories, which may import replay); absent: refused. */
  recordingRuns?: ReadRuns;
}

/**
 * The composition root: the core (`core/core-engine.ts`: clusters, push hub, settings) with the services registered on
 * it. Each service answers its part of the contract from `EngineCore` alone, so the core names none of them; what a
 * service keeps beside the clusters (imported runs, each live cluster's rolling restart) is kept here.
 */
export class Engine extends CoreEngine implements EngineHost {
  readonly handlers: EngineHandlers;
  readonly recordings: RecordingImports;
  /** Each live cluster's rolling restart (`createEngine` hosts one per watched cluster); a recording has none. */
  readonly rolling = new WeakMap<ClusterEntry, RollingHost>();

  constructor(config: EngineConfig) {
    super(config);
    const read = config.recordingRuns;
    this.recordings = new RecordingImports((file, source, onProgress) =>
      read ? read(file, source, onProgress) : Promise.reject(new EngineRequestError('UNSUPPORTED', `a ${config.host} cannot read recordings`)),
    );
    this.handlers = {
      ...coreHandlers(this),
      ...actionHandlers(this),
      ...profileHandlers(this),
      ...runHandlers(this, this.recordings),
      ...maintenanceHandlers(this),
      ...incidentHandlers(this),
      ...backupHandlers(this),
      ...rollingHandlers(this, (entry) => this.rolling.get(entry)),
    };
  }
}
