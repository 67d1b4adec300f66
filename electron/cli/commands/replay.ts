import { basename } from 'node:path';
import type { Command } from 'commander';
import { readHeader } from '../../engine/recording/recording-reader.js';
import { addListenOptions, checkListenOptions, type ListenOptions } from '../../serve/transport/listen-options.js';
import { positiveNumber } from '../options/options.js';
import { progressBar, type ProgressBar } from '../format/progress-bar.js';
import { printText } from '../format/terminal-text.js';
import { visibleText } from '../../contract/page-safe/outside-text.js';

interface ReplayOpts extends ListenOptions {
  speed: number;
  from?: number;
}

export function registerReplay(program: Command): void {
  const command = program
    .command('replay')
    .description('play a recording (--record) back and serve it like `ndbtop serve`')
    .argument('<file>', 'recording written by --record')
    .option('--speed <x>', 'playback speed (2 = twice as fast)', positiveNumber, 1)
    .option('--from <seconds>', 'start this many seconds into the recording (played from the keyframe before it)', positiveNumber);
  addListenOptions(command).action(async (file: string, opts: ReplayOpts) => {
    checkListenOptions(command, opts);
    const from = opts.from === undefined ? undefined : (await readHeader(file)).createdAt + opts.from * 1000;
    let bar: ProgressBar | null = null;
    const stopBar = (): void => bar?.done();
    const [{ createReplayEngine }, { serveUntilSignalled }] = await Promise.all([import('../../engine/recording/replay.js'), import('../../serve/serve-cli.js')]);
    const engine = await createReplayEngine({ file, speed: opts.speed, ...(from === undefined ? {} : { from }), onProgress: (done, total) => bar?.update(done, total) });
    void engine.finished.then((report) => {
      stopBar();
      printText(process.stdout, `ndbtop replay: recording played (${report.inputs} inputs)\n`);
      // Recordings are shared: what they quote (a line's bytes in a parse error) must not drive the terminal.
      for (const p of report.problems) printText(process.stderr, `ndbtop replay: line ${p.line} skipped: ${p.error}\n`);
    });
    await serveUntilSignalled(engine, opts, [`replaying ${file} at speed ${opts.speed}${opts.from ? ` from ${opts.from} s in` : ''}; operator actions disabled`], () => {
      // The bar on a terminal only, after the banner; erased before the shutdown line is printed.
      bar = progressBar(visibleText(`replay ${basename(file)}`));
      process.once('SIGINT', stopBar);
      process.once('SIGTERM', stopBar);
    });
  });
}
