import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import { ROOT as root } from '../../scripts/test-source.js';

// The project's own ESLint configuration, run through ESLint's API on code planted for the purpose: the rules that
// keep import circles out (type-only ones included) and keep each folder to what it may run must fail on a breach, or they guard nothing.
const eslint = new ESLint({ cwd: root });

const rulesBroken = (results: ESLint.LintResult[]): string[] => results.flatMap((r) => r.messages.map((m) => `${relative(root, r.filePath)}: ${m.ruleId ?? m.message}`));

test('import-x/no-cycle fails on two modules that import each other; ndbtop/no-type-cycle once one import is a type; both pass once the circle is gone', async () => {
  // Inside the repository, so the project's configuration applies; the planted files are removed afterwards.
  const dir = mkdtempSync(join(root, 'electron', 'test', 'planted-cycle-'));
  try {
    const a = join(dir, 'a.ts');
    const b = join(dir, 'b.ts');
    writeFileSync(a, "import { b } from './b.js';\n\nexport const a = (): number => b() + 1;\n");
    writeFileSync(b, "import { a } from './a.js';\n\nexport const b = (): number => (a.length > 0 ? 1 : 0);\n");
    const broken = rulesBroken(await eslint.lintFiles([a, b]));
    assert.deepEqual(broken.sort(), [`${relative(root, a)}: import-x/no-cycle`, `${relative(root, b)}: import-x/no-cycle`]);

    // Gone at run time, but the same knot: the type-only rule reports it, once, at both ends.
    writeFileSync(b, "import type { a } from './a.js';\n\nexport const b = (f?: typeof a): number => (f ? 1 : 0);\n");
    assert.deepEqual((await eslint.lintFiles([a, b])).flatMap((r) => r.messages.map((m) => `${relative(root, r.filePath)}:${m.line}: ${m.ruleId}`)).sort(), [
      `${relative(root, a)}:1: ndbtop/no-type-cycle`,
      `${relative(root, b)}:1: ndbtop/no-type-cycle`,
    ]);

    writeFileSync(b, "export const b = (f?: () => void): number => (f ? 1 : 0);\n");
    assert.deepEqual(rulesBroken(await eslint.lintFiles([a, b])), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ndbtop/no-type-cycle fails on a circle of type-only imports, however they are written', async () => {
  const dir = mkdtempSync(join(root, 'electron', 'test', 'planted-type-cycle-'));
  try {
    // core names a service's type, the service takes the core's, and a re-export of types closes the ring.
    const files = {
      core: "import { type Service } from './service.js';\n\nexport interface Core {\n  services: Service[];\n}\n",
      service: "import type { Core } from './index.js';\n\nexport type Service = (core: Core) => void;\n",
      index: "export type { Core } from './core.js';\n",
    };
    const paths = Object.entries(files).map(([name, code]) => {
      const path = join(dir, `${name}.ts`);
      writeFileSync(path, code);
      return path;
    });
    assert.deepEqual(rulesBroken(await eslint.lintFiles(paths)).sort(), paths.map((p) => `${relative(root, p)}: ndbtop/no-type-cycle`).sort());

    // The service's type no longer comes through the ring: no circle, no report.
    writeFileSync(paths[1] as string, 'export type Service = (core: { services: unknown[] }) => void;\n');
    assert.deepEqual(rulesBroken(await eslint.lintFiles(paths)), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('each folder imports only what may run where it runs', async () => {
  const lint = async (code: string, path: string): Promise<string[]> => rulesBroken(await eslint.lintText(code, { filePath: join(root, path) }));
  const use = (what: string): string => `${what}\n\nexport const used = x;\n`;
  // The page: no node built-ins, none of the Node-side folders; the contract and its own modules are fine.
  assert.deepEqual(await lint(use("import { x } from 'node:fs';"), 'renderer/src/planted.ts'), ['renderer/src/planted.ts: no-restricted-imports']);
  assert.deepEqual(await lint(use("import { x } from 'fs';"), 'renderer/src/planted.ts'), ['renderer/src/planted.ts: no-restricted-imports']);
  for (const folder of ['engine', 'serve', 'cli']) {
    assert.deepEqual(await lint(use(`import { x } from '../../electron/${folder}/x.js';`), 'renderer/src/planted.ts'), ['renderer/src/planted.ts: no-restricted-imports'], folder);
  }
  assert.deepEqual(await lint(use("import { x } from '../../native-mgm/index.js';"), 'renderer/src/planted.ts'), ['renderer/src/planted.ts: no-restricted-imports']);
  assert.deepEqual(await lint(use("import { x } from '../../ndbinfo/index.js';"), 'renderer/src/planted.ts'), ['renderer/src/planted.ts: no-restricted-imports']);
  assert.deepEqual(await lint(use("import { x } from '../../electron/contract/page-safe/vocabulary.js';"), 'renderer/src/planted.ts'), []);
  // The contract's zod schemas reach the page as types only, and a page-safe module of the contract loads no zod either.
  const schema = "import { x } from '../../electron/contract/schemas/node.js';";
  assert.deepEqual(await lint(use(schema), 'renderer/src/planted.ts'), ['renderer/src/planted.ts: @typescript-eslint/no-restricted-imports']);
  assert.deepEqual(await lint(use(schema.replace('import {', 'import type {')).replace('export const used = x;', 'export type Used = x;'), 'renderer/src/planted.ts'), []);
  assert.deepEqual(await lint(use("import { x } from 'zod';"), 'electron/contract/page-safe/planted.ts'), ['electron/contract/page-safe/planted.ts: @typescript-eslint/no-restricted-imports']);
  // The Node side never reaches into the page.
  for (const folder of ['engine', 'serve', 'cli']) {
    assert.deepEqual(await lint(use("import { x } from '../../renderer/src/x.js';"), `electron/${folder}/planted.ts`), [`electron/${folder}/planted.ts: no-restricted-imports`], folder);
  }
  // Data sources import neither the Electron layer nor the page.
  assert.deepEqual(await lint(use("import { x } from '../electron/engine/x.js';"), 'native-mgm/planted.ts'), ['native-mgm/planted.ts: no-restricted-imports']);
  assert.deepEqual(await lint(use("import { x } from '../renderer/src/x.js';"), 'ndbinfo/planted.ts'), ['ndbinfo/planted.ts: no-restricted-imports']);
});
