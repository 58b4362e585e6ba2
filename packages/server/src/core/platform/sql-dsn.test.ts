import { describe, expect, it } from 'vitest';
import { parseSqlDsn, redactDsn } from './sql-dsn.ts';

describe('parseSqlDsn', () => {
  it('picks the engine from the prefix', () => {
    expect(parseSqlDsn('', 'x.db')).toEqual({ dialect: 'sqlite', path: 'x.db' });
    expect(parseSqlDsn('local', 'x.db').dialect).toBe('sqlite');
    expect(parseSqlDsn('sqlite:/data/logs.db', 'x.db')).toEqual({ dialect: 'sqlite', path: '/data/logs.db' });
    expect(parseSqlDsn('postgresql://a@h/db', '')).toEqual({ dialect: 'postgres', connectionString: 'postgresql://a@h/db' });
    expect(parseSqlDsn('mysql://root@127.0.0.1:3306/db', '')).toEqual({ dialect: 'mysql', uri: 'mysql://root@127.0.0.1:3306/db' });
  });

  it('converts a Go MySQL DSN', () => {
    expect(parseSqlDsn('root:pw@tcp(127.0.0.1:3306)/oneapi?parseTime=true', '')).toEqual({ dialect: 'mysql', uri: 'mysql://root:pw@127.0.0.1:3306/oneapi' });
  });

  it('hides passwords', () => {
    expect(redactDsn('postgres://user:secret@host/db')).toBe('postgres://user:***@host/db');
    expect(redactDsn('root:secret@tcp(h:3306)/db')).toBe('root:***@tcp(h:3306)/db');
  });
});
