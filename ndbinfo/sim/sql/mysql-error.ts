/** An error as a MySQL server sends it: number, SQLSTATE and the server's message text. */
export class MysqlError extends Error {
  constructor(
    readonly code: number,
    readonly sqlState: string,
    message: string,
  ) {
    super(message);
  }
}

/** The server's errors the endpoint gives, with MySQL 8.4's numbers, states and texts. */
export const mysqlErrors = {
  accessDenied: (user: string, host: string, usingPassword: boolean) =>
    new MysqlError(1045, '28000', `Access denied for user '${user}'@'${host}' (using password: ${usingPassword ? 'YES' : 'NO'})`),
  unknownDatabase: (db: string) => new MysqlError(1049, '42000', `Unknown database '${db}'`),
  noDatabaseSelected: () => new MysqlError(1046, '3D000', 'No database selected'),
  noSuchTable: (db: string, table: string) => new MysqlError(1146, '42S02', `Table '${db}.${table}' doesn't exist`),
  unknownColumn: (column: string) => new MysqlError(1054, '42S22', `Unknown column '${column}' in 'field list'`),
  syntax: (near: string) =>
    new MysqlError(1064, '42000', `You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the right syntax to use near '${near}' at line 1`),
  readOnly: (table: string) => new MysqlError(1036, 'HY000', `Table '${table}' is read only`),
  unknownSystemVariable: (name: string) => new MysqlError(1193, 'HY000', `Unknown system variable '${name}'`),
  unsupportedPreparedStatements: () => new MysqlError(1295, 'HY000', 'This command is not supported in the prepared statement protocol yet'),
  unknownCommand: () => new MysqlError(1047, '08S01', 'Unknown command'),
  noSuchFunction: (db: string, name: string) => new MysqlError(1305, '42000', `FUNCTION ${db}.${name} does not exist`),
  other: (message: string) => new MysqlError(1105, 'HY000', message),
  emptyQuery: () => new MysqlError(1065, '42000', 'Query was empty'),
};
