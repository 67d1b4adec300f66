/** The one contract between engine and UI: import from here on every side. */
export * from './node.js';
export * from './events.js';
export * from './alert-kinds.js';
export * from './counters.js';
export * from './snapshot.js';
export * from './tls.js';
export * from './history.js';
export * from './runs.js';
export * from './actions.js';
export * from './settings.js';
export * from './channels.js';
export * from './api.js';
export * from './validate.js';
export * from './config.js';
