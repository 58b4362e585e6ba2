/** Socket failures: nothing answers at the address, or the connection went away under us. */
const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ECONNABORTED']);

/**
 * PostgreSQL's SQLSTATEs of a server going away or not there yet: connection exceptions (class 08),
 * administrator / crash shutdown (57P01, 57P02), starting up (57P03), too many connections (53300).
 */
const postgresCodes = /^(08...|57P0[123]|53300)$/;

/** MySQL / MariaDB (mysql2) codes of the same situations. */
const mysqlCodes = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_SERVER_GONE_ERROR',
  'ER_SERVER_LOST',
  'ER_TOO_MANY_USER_CONNECTIONS',
]);

/** pg and pg-pool report some of these without a code, only in words. */
const postgresMessages =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection terminated due to connection timeout/i;

function isUnreachable(error: unknown, depth: number): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (networkCodes.has(code) || postgresCodes.test(code) || mysqlCodes.has(code))) return true;
  if (typeof message === 'string' && postgresMessages.test(message)) return true;
  // Node tries every address of a name (IPv6 and IPv4 of localhost) and reports them together.
  if (Array.isArray(errors) && errors.some((inner) => isUnreachable(inner, depth + 1))) return true;
  return isUnreachable(cause, depth + 1);
}

/**
 * True when the database could not be reached or went away (a restart, a cut network, too many
 * connections): worth waiting for. False for what waiting cannot fix, such as a wrong password, a
 * database that does not exist or a failing statement: those stop start-up with their one line.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  return isUnreachable(error, 0);
}
