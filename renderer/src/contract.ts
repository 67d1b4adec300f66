/**
 * The renderer's one door to the contract: its types, and at run time only the modules that build no zod schema (the
 * page validates with functions compiled at build time, so zod never loads here).
 */
export type * from '../../electron/contract/index.js';
export { ALERT_KIND_LABEL, byUrgency, listNodeIds } from '../../electron/contract/page-safe/alert-kinds.js';
export { FILL_SOON_SEC, fullInWords, levelMoved } from '../../electron/contract/page-safe/level-words.js';
export type { LevelFigures } from '../../electron/contract/page-safe/level-words.js';
export { formatDuration } from '../../electron/contract/page-safe/format-duration.js';
export { mgmLostWhy } from '../../electron/contract/page-safe/source-lost.js';
export { figureValue, incidentNodes, restartWords } from '../../electron/contract/page-safe/incident-words.js';
export { backupEtaWords, backupHeadline, formatBytes, formatCount, nodeBackupPercent, pastBackupLine } from '../../electron/contract/page-safe/backup-words.js';
export { checksLine } from '../../electron/contract/page-safe/rolling-checks.js';
export { DEFAULT_MAINTENANCE_MS, MAX_MAINTENANCE_MS, MAX_MAINTENANCE_TEXT } from '../../electron/contract/page-safe/maintenance-bounds.js';
export { maintenanceEventText } from '../../electron/contract/page-safe/maintenance-event-text.js';
export { chartMaxPoints, decimationBucketMs } from '../../electron/contract/page-safe/chart-decimation.js';
export { commonPhases, legendNames } from '../../electron/contract/page-safe/run-alignment.js';
export { formatChange } from '../../electron/contract/page-safe/format-change.js';
export { linksSummary } from '../../electron/contract/page-safe/links-summary.js';
export { sameValue } from '../../electron/contract/page-safe/same-value.js';
export { sqlCandidates } from '../../electron/contract/page-safe/sql-candidates.js';
export { DEFAULT_FAILOVER, FAILOVER_POLICIES, METRICS, RUN_FIGURES, SEVERITIES } from '../../electron/contract/page-safe/vocabulary.js';
export { CELL_NONE, cellPercent, columnSeconds, decodeCells, toCell } from '../../electron/contract/page-safe/thread-cells.js';
export { baselineFor, phaseProgress, restartCompleted, RESTART_PHASES } from '../../electron/contract/page-safe/restart-phases.js';
export type { PhaseProgress, PhaseRow, RestartTimes } from '../../electron/contract/page-safe/restart-phases.js';
