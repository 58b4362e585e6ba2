import { describe, expect, it } from 'vitest';
import { missingBackendsError, resolveTestBackends } from './test-backends.ts';

describe('test backends', () => {
  it('keeps given URLs, fills in the servers that listen locally and names the rest', async () => {
    const env: Record<string, string | undefined> = { TEST_PG_URL: 'postgres://elsewhere/db' };
    const result = await resolveTestBackends(env, async (port) => port === 6379);
    expect(result).toEqual({ present: ['PostgreSQL', 'Redis'], missing: ['MySQL'] });
    expect(env).toEqual({ TEST_PG_URL: 'postgres://elsewhere/db', TEST_REDIS_URL: 'redis://127.0.0.1:6379' });
  });

  it('refuses a missing backend under CI only', () => {
    expect(missingBackendsError(['MySQL'], true)).toBe('CI requires every test backend; not configured or not listening: MySQL (TEST_MYSQL_URL)');
    expect(missingBackendsError(['MySQL'], false)).toBeUndefined();
    expect(missingBackendsError([], true)).toBeUndefined();
  });
});
