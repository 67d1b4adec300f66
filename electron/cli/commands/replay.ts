import type { Command } from 'commander';
import { createReplayEngine } from '../../engine/recording/replay.js';
import { addListenOptions, checkListenOptions, serveUntilSignalled, type ListenOptions } from '../../serve/serve-cli.js';
import { positiveNumber } from '../options.js';

interface ReplayOpts extends ListenOptions {
  speed: number;
}

export function registerReplay(program: Command): void {
  const command = program
    .command('replay')
    .description('play a recording (--record) back and serve it like `ndbtop serve`')
    .argument('<file>', 'recording written by --record')
    .option('--speed <x>', 'playback speed (2 = twice as fast)', positiveNumber, 1);
  addListenOptions(command).action(async (file: string, opts: ReplayOpts) => {
    checkListenOptions(command, opts);
    const engine = await createReplayEngine({ file, speed: opts.speed });
    void engine.finished.then((report) => {
      process.stdout.write(`ndbtop replay: recording played (${report.inputs} inputs)\n`);
      for (const p of report.problems) process.stderr.write(`ndbtop replay: line ${p.line} skipped: ${p.error}\n`);
    });
    await serveUntilSignalled(engine, opts, [`replaying ${file} at speed ${opts.speed}; operator actions disabled`]);
  });
}
