/** The public surface of native-mgm: everything the engine, the CLI and the tests outside this folder use. */
export * from './errors.js';
export * from './types.js';
export { decodeVersion, encodeVersion, parseVersionText } from './version.js';
export { parseConnectstring, resolveConnectstring, formatConnectstring, DEFAULT_MGM_PORT } from './connectstring.js';
export type { MgmHost, ResolvedConnectstring } from './connectstring.js';
export { CATEGORIES, CATEGORY_NUMBERS, EVENT_TYPES, EVENT_TYPES_BY_NAME, MONITOR_FILTER, eventTypeByName } from './events/catalogue.js';
export type { Category, EventTypeSpec, Severity } from './events/catalogue.js';
export { decodeTextWords, encodeTextWords } from './events/text-words.js';
export { MgmClient } from './client/mgm-client.js';
export type { MgmClientOptions, CallOptions, RestartOptions, StopOptions, BackupOptions, ClusterLogSeverity } from './client/mgm-client.js';
export { EventStream } from './client/event-stream.js';
export { sleepUnlessAborted } from './client/sleep.js';
export type { EventStreamOptions } from './client/event-stream.js';
export type { LinkState, LinkStatus } from './client/link.js';
export type { SessionInfo } from './client/bootstrap.js';
export type { NodeCommandResult } from './protocol/messages/node-command.js';
export * from './config/index.js';
