import { allStarted, waitUntil, type Scenario } from './scenario.js';

/** Between backups: long enough to look at the finished one, short enough to watch the next. */
const PAUSE_MS = 20_000;
/** Every other backup shares its disks with something else (a slow one, for the "slower than the last" warning). */
const BUSY_DISK_SPEED = 0.4;

export const backup: Scenario = {
  name: 'backup',
  description: 'steady load and a backup after another, every other one on busy disks (at 40 % of the write speed)',
  async run({ model, clock }) {
    model.setLoad('steady');
    for (let n = 0; ; n++) {
      await waitUntil(clock, () => allStarted(model) && !model.backups.busy);
      await clock.sleep(n === 0 ? 3000 : PAUSE_MS);
      const handle = model.backups.start(0, { speedFactor: n % 2 === 1 ? BUSY_DISK_SPEED : 1 });
      if ('error' in handle) continue;
      await handle.completed;
    }
  },
};
