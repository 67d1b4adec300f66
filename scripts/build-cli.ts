import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCli, CHUNK_DIR } from './cli-bundle.js';

/** `npm run build:cli [outdir]`: the entry (ndbtop.mjs) and its chunks (cli-chunks/) into OUTDIR, by default dist/. */
const outdir = process.argv[2] ?? fileURLToPath(new URL('../dist', import.meta.url));
rmSync(join(outdir, CHUNK_DIR), { recursive: true, force: true });
await buildCli(outdir);
