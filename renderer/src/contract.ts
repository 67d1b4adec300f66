/** The renderer's one door to the contract: types and zod schemas only, never engine code. */
export type * from '../../electron/contract/index.js';
export { METRICS, SeveritySchema, sameValue } from '../../electron/contract/index.js';
