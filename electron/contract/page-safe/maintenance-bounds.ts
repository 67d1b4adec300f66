/** The longest a maintenance window lasts, from its start, extensions included: a day (a longer job opens a new one). */
export const MAX_MAINTENANCE_MS = 24 * 3600_000;
/** MAX_MAINTENANCE_MS in words, for the errors and options that name it. */
export const MAX_MAINTENANCE_TEXT = `${MAX_MAINTENANCE_MS / 3600_000} h`;
/** How long a window lasts when its opener gives no duration. */
export const DEFAULT_MAINTENANCE_MS = 3600_000;
/** The most maintenance windows open at once, per cluster. */
export const MAX_OPEN_MAINTENANCE_WINDOWS = 32;
