import { Ajv } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { z } from 'zod';
import { PushMessageSchema, REQUESTS } from '../electron/contract/schemas/channels.js';

/**
 * Ajv's standalone compiler is a CommonJS export that is also its own `default`, so `.default` is the function under
 * Node and bundlers alike; TypeScript types the default import differently under the two resolutions, hence the cast.
 */
const standaloneCode = (standalone as unknown as { default: (ajv: Ajv, refs: Record<string, string>) => string }).default;

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
  // One document for all, so the shapes several messages share (a node, an alert) are compiled once, as $defs. Draft 7,
  // not 2020-12: Ajv's 2020 code tracks evaluated properties (for keywords the contract never uses), which made it a
  // sixth larger and its first check of a 144-node snapshot in Chromium 8-11 ms instead of 6 (then 4-5 ms, not 1-3).
  const document = z.toJSONSchema(z.object({ push: PushMessageSchema, ...responses }), { io: 'input', unrepresentable: 'throw', reused: 'ref', target: 'draft-7' });
  const ajv = new Ajv({
    code: { source: true, esm: true },
    strict: true,
    // Nullable plain values become `type: [integer, null]` (below); record keys from an enum are required without properties.
    allowUnionTypes: true,
    strictRequired: false,
    // Functions per shared shape rather than copies of it inlined at every use: the module is parsed on every page load.
    inlineRefs: false,
    // String lengths in UTF-16 units as zod counts them, without a runtime helper the module would have to import.
    unicode: false,
    logger: { log: console.log, warn: warnUnlessChosen, error: console.error },
  });
  ajv.addSchema({ ...(nullableAsTypes(document) as object), $schema: undefined, $id: 'contract' });
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

/**
 * zod writes `.nullable()` as `anyOf: [X, { type: "null" }]`, which Ajv compiles to a branch per alternative with error
 * bookkeeping. Where X is a plain typed schema (no enum, const or reference, which null would not satisfy) the same
 * rule is `X` with `null` added to its types: type-specific keywords (minimum, items …) do not apply to null.
 */
function nullableAsTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableAsTypes);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, nullableAsTypes(v)])) as Record<string, unknown>;
  const [first, second, ...rest] = Array.isArray(out.anyOf) ? (out.anyOf as Record<string, unknown>[]) : [];
  if (rest.length > 0 || !first || !second || Object.keys(out).length !== 1) return out;
  const [value, nul] = second.type === 'null' && Object.keys(second).length === 1 ? [first, second] : [second, first];
  if (!(nul.type === 'null' && Object.keys(nul).length === 1)) return out;
  if (typeof value.type !== 'string' || 'enum' in value || 'const' in value || '$ref' in value || 'anyOf' in value || 'oneOf' in value) return out;
  return { ...value, type: [value.type, 'null'] };
}
