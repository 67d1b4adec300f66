const WIDTH = 30;
const MIN_INTERVAL_MS = 100;

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(bytes < 1e8 ? 1 : 0)} MB`;

/** The bar itself: `[#####·····]  45 %  900 MB of 2000 MB`. */
export function progressLine(label: string, done: number, total: number): string {
  const share = total > 0 ? Math.min(1, done / total) : 1;
  const filled = Math.round(share * WIDTH);
  return `${label} [${'#'.repeat(filled)}${'·'.repeat(WIDTH - filled)}] ${String(Math.floor(share * 100)).padStart(3)} %  ${mb(done)} of ${mb(total)}`;
}

export interface ProgressBar {
  update: (done: number, total: number) => void;
  /** Erases the bar; updates after it draw nothing. */
  done: () => void;
}

/**
 * A progress bar on stderr for reading a large file, redrawn in place at most every MIN_INTERVAL_MS; only on a
 * terminal (a pipe or a log gets nothing), and `done()` erases it so the output that follows starts clean. The
 * label is the caller's (a file name the user typed), escaped by the caller.
 */
export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr): ProgressBar {
  if (!stream.isTTY) return { update: () => undefined, done: () => undefined };
  let last = 0;
  let shown = false;
  let over = false;
  return {
    update: (done, total) => {
      const now = Date.now();
      if (over) return;
      if (now - last < MIN_INTERVAL_MS && done < total) return;
      last = now;
      shown = true;
      stream.write(`\r${progressLine(label, done, total)}\x1b[K`);
    },
    done: () => {
      if (shown && !over) stream.write('\r\x1b[K');
      over = true;
    },
  };
}
