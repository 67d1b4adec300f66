/** The simulator's SQL node: ndbinfo over the cluster model, on a MySQL-protocol endpoint. */
export { startSqlSimulator, sqlNodeVersion, type SqlOptions, type SqlSimulator } from './sql-simulator.js';
export { startSqlEndpoint, type SqlEndpoint, type SqlEndpointOptions } from './endpoint.js';
