import { Ajv2020 } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';
import { z } from 'zod';
import { PushMessageSchema, REQUESTS } from '../electron/contract/channels.js';

/**
 * Ajv's standalone compiler is a CommonJS export that is also its own `default`, so `.default` is the function under
 * Node and bundlers alike; TypeScript types the default import differently under the two resolutions, hence the cast.
 */
const standaloneCode = (standalone as unknown as { default: (ajv: Ajv2020, refs: Record<string, string>) => string }).default;

/** What the page imports; the renderer's Vite build and the preload's esbuild bundle resolve it to `contractValidatorsModule()`. */
export const CONTRACT_VALIDATORS_ID = 'virtual:ndbtop-contract-validators';

/**
 * The page's side of the contract compiled at build time: the zod schemas the engine checks with, as JSON Schema (what
 * the page receives is zod's input, so its input shape), compiled by Ajv to an ES module of plain functions that
 * exports `push` and `responses` (one per request). The page's CSP forbids eval, so nothing may be compiled there,
 * and the module may import nothing either. `page-validators.test.ts` holds it to zod's verdicts.
 */
export function contractValidatorsModule(): string {
  const responses = Object.fromEntries(Object.entries(REQUESTS).map(([name, { response }]) => [name, response]));
  // One document for all, so the shapes several messages share (a node, an alert) are compiled once, as $defs.
  const document = z.toJSONSchema(z.object({ push: PushMessageSchema, ...responses }), { io: 'input', unrepresentable: 'throw', reused: 'ref', target: 'draft-2020-12' });
  const ajv = new Ajv2020({
    code: { source: true, esm: true },
    strict: true,
    // zod's nullable numbers become `type: [integer, null]`; record keys from an enum are required without properties.
    allowUnionTypes: true,
    strictRequired: false,
    // Functions per shared shape rather than copies of it inlined at every use: the module is parsed on every page load.
    inlineRefs: false,
    // String lengths in UTF-16 units as zod counts them, without a runtime helper the module would have to import.
    unicode: false,
    logger: { log: console.log, warn: warnUnlessChosen, error: console.error },
  });
  ajv.addSchema({ ...document, $schema: undefined, $id: 'contract' });
  const names = Object.keys(REQUESTS);
  const exported = Object.fromEntries(['push', ...names].map((name) => [name, `contract#/properties/${name}`]));
  const code = standaloneCode(ajv, exported);
  if (/\brequire\(|^\s*import\b/m.test(code)) throw new Error('the compiled contract validators need a runtime helper; the page cannot import one');
  return `${code}\nexport const responses = { ${names.join(', ')} };\n`;
}

/** Ajv warns that `unicode: false` is deprecated; it is chosen above on purpose, and any other warning still shows. */
function warnUnlessChosen(...args: unknown[]): void {
  if (!String(args[0]).includes('option unicode')) console.warn(...args);
}
