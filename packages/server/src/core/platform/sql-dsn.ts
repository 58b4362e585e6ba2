export type SqlDialect = 'sqlite' | 'postgres' | 'mysql';

export type SqlTarget = { dialect: 'sqlite'; path: string } | { dialect: 'postgres'; connectionString: string } | { dialect: 'mysql'; uri: string };

/**
 * Reads a DSN the way new-api does: empty or `local…` means SQLite (the file at SQLITE_PATH),
 * `postgres://` PostgreSQL, anything else MySQL. Beyond new-api, `sqlite:<path>` names a SQLite file
 * of its own, so `LOG_SQL_DSN` can put the logs in a second file beside the main one. Go-style MySQL DSNs (`user:pass@tcp(host:port)/db?…`) are turned into URLs so an
 * existing new-api `SQL_DSN` works unchanged.
 */
export function parseSqlDsn(dsn: string, sqlitePath: string): SqlTarget {
  if (!dsn || dsn.startsWith('local')) return { dialect: 'sqlite', path: sqlitePath };
  if (dsn.startsWith('sqlite:')) return { dialect: 'sqlite', path: dsn.slice('sqlite:'.length) };
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
