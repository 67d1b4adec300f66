/** The renderer's one door to the contract: types and zod schemas only, never engine code. */
export type * from '../../electron/contract/index.js';
export { ALERT_KIND_LABEL, formatChange, listNodeIds, METRICS, RUN_FIGURES, SeveritySchema } from '../../electron/contract/index.js';
