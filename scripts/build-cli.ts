import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildCli } from './cli-bundle.js';

/** `npm run build:cli [outdir]`: the entry (ndbtop.mjs) and its chunks (cli-chunks/) into OUTDIR, by default dist/. */
const outdir = process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url));
// Chunks are named by content: those of an earlier build would stay beside the new ones.
rmSync(`${outdir}/cli-chunks`, { recursive: true, force: true });
await buildCli(outdir);
