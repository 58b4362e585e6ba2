export type SqlDialect = 'sqlite' | 'postgres' | 'mysql';

export type SqlTarget =
  | { dialect: 'sqlite'; path: string }
  | { dialect: 'postgres'; connectionString: string }
  | { dialect: 'mysql'; uri: string };

/**
 * Reads a DSN the way new-api does: empty or `local…` means SQLite, `postgres://` PostgreSQL, anything
 * else MySQL. Go-style MySQL DSNs (`user:pass@tcp(host:port)/db?…`) are turned into URLs so an
 * existing new-api `SQL_DSN` works unchanged.
 */
export function parseSqlDsn(dsn: string, sqlitePath: string): SqlTarget {
  if (!dsn || dsn.startsWith('local')) return { dialect: 'sqlite', path: sqlitePath };
  if (/^postgres(ql)?:\/\//.test(dsn)) return { dialect: 'postgres', connectionString: dsn };
  if (dsn.startsWith('mysql://')) return { dialect: 'mysql', uri: dsn };
  const goStyle = /^(?<credentials>[^@]*)@tcp\((?<address>[^)]+)\)\/(?<database>[^?]*)(?:\?.*)?$/.exec(dsn);
  if (goStyle?.groups) {
    const { credentials, address, database } = goStyle.groups;
    return { dialect: 'mysql', uri: `mysql://${credentials}@${address}/${database}` };
  }
  return { dialect: 'mysql', uri: `mysql://${dsn}` };
}

/** For log lines: the DSN with any password replaced. */
export function redactDsn(dsn: string): string {
  return dsn.replace(/(\/\/[^:/@]+:)[^@]*@/, '$1***@').replace(/^([^:/@]+:)[^@]*@tcp/, '$1***@tcp');
}
