import { build, type BuildOptions, type Metafile } from 'esbuild';
import { sourcePath } from './test-source.js';

// From the sources (npm run build:cli) and from dist/ (the test of what the entry loads) alike.
const ENTRY = sourcePath(new URL('../electron/cli/ndbtop.ts', import.meta.url));
/** The folder beside the entry the chunks go to, named by content: a new build leaves an earlier one's there. */
export const CHUNK_DIR = 'cli-chunks';

/**
 * The CLI (package.json's `bin`) as ES modules: the entry, ndbtop.mjs, holds the option parsing and what the light
 * commands need (show, config, events: the protocol client); what a command only needs once it runs (the engine,
 * serve mode, the simulator, the rolling room, mysql2, zod) is a chunk in cli-chunks/ the command imports then.
 * Loading tsc's ~360 modules and zod's ~95 cost every `ndbtop` command ~1.3 s of CPU; one 3.4 MB file ~0.2 s; the
 * entry alone (0.4 MB) ~0.1 s, near Node's own start. sql.js stays a package of its own (it loads its WebAssembly
 * from beside itself), as does Electron (never loaded by the CLI); bundled CommonJS packages (mysql2, ws, commander,
 * prom-client) get the `require` an ES module lacks, in every chunk.
 */
export function buildCli(outdir: string, extra: Pick<BuildOptions, 'metafile' | 'write' | 'splitting'> = {}): Promise<{ metafile?: Metafile }> {
  return build({
    entryPoints: [ENTRY],
    outdir,
    entryNames: '[name]',
    chunkNames: `${CHUNK_DIR}/[name]-[hash]`,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['electron', 'sql.js'],
    banner: { js: "import { createRequire as __ndbtopCreateRequire } from 'node:module';\nconst require = __ndbtopCreateRequire(import.meta.url);" },
    logLevel: 'warning',
    ...extra,
  });
}

/** The source files (and packages' files) a build's entry loads before any command runs: its static imports, transitively. */
export function loadedAtStart(metafile: Metafile): string[] {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((k) => outputs[k]?.entryPoint?.endsWith('electron/cli/ndbtop.ts'));
  const seen = new Set<string>();
  for (const stack = entry ? [entry] : []; stack.length > 0; ) {
    const out = stack.pop()!;
    if (seen.has(out)) continue;
    seen.add(out);
    for (const i of outputs[out]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) stack.push(i.path);
  }
  return [...seen].flatMap((out) => Object.keys(outputs[out]?.inputs ?? {}));
}
