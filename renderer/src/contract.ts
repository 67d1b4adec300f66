/** The renderer's one door to the contract: types and zod schemas only, never engine code. */
export type * from '../../electron/contract/index.js';
export { METRICS, RUN_FIGURES, SeveritySchema, formatChange } from '../../electron/contract/index.js';
