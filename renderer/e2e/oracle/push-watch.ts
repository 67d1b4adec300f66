import type { BackupStatus, PushMessage } from '../../../electron/contract/index.js';
import type { EngineHost } from '../../../electron/engine/core/engine-host.js';

/**
 * What the engine pushed between two frames, as the page is sent it: a frame's two reads of the engine can both
 * miss a state the page shows (a backup's figures move each second; the one pushed between the previous frame and
 * this one's first read is on the page until the next push lands).
 */
export class PushWatch {
  private backups: Array<BackupStatus | null> = [];
  private readonly off: () => void;

  constructor(engine: EngineHost) {
    this.off = engine.subscribe((m: PushMessage) => {
      const backups = m.type === 'snapshot' ? m.snapshot.backups : m.type === 'delta' ? m.delta.backups : undefined;
      if (backups !== undefined) this.backups.push(backups);
    });
  }

  /** The backup states pushed since the last call. */
  takeBackups(): Array<BackupStatus | null> {
    const taken = this.backups;
    this.backups = [];
    return taken;
  }

  close(): void {
    this.off();
  }
}
