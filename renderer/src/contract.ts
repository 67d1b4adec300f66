/** The renderer's one door to the contract: types and zod schemas only, never engine code. */
export type * from '../../electron/contract/index.js';
export { ALERT_KIND_LABEL, chartMaxPoints, decimationBucketMs, formatChange, listNodeIds, METRICS, RUN_FIGURES, sameValue, SeveritySchema } from '../../electron/contract/index.js';
