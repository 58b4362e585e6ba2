import { availableParallelism } from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('uses the documented defaults on an empty environment', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.sqlDsn).toBe('');
    expect(config.sqlitePath).toBe('data/switchboard.db');
    expect(config.syncFrequencySeconds).toBe(60);
    expect(config.tokenCacheSize).toBe(100_000);
    expect(config.userCacheSize).toBe(50_000);
    expect(config.taskPollIntervalSeconds).toBe(15);
    expect(config.nodeType).toBe('master');
    expect(config.sessionSecretGenerated).toBe(true);
    expect(config.cryptoSecret).toBe(config.sessionSecret);
  });

  it('names the variable when a value is malformed', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ SYNC_FREQUENCY: '0' })).toThrow(/SYNC_FREQUENCY/);
    expect(() => loadConfig({ TOKEN_CACHE_SIZE: '0' })).toThrow(/TOKEN_CACHE_SIZE/);
    expect(() => loadConfig({ USER_CACHE_SIZE: 'lots' })).toThrow(/USER_CACHE_SIZE/);
    expect(() => loadConfig({ TASK_POLL_INTERVAL_SECONDS: '0' })).toThrow(/TASK_POLL_INTERVAL_SECONDS/);
    expect(() => loadConfig({ TASK_POLL_INTERVAL_SECONDS: 'fast' })).toThrow(/TASK_POLL_INTERVAL_SECONDS/);
    expect(() => loadConfig({ NODE_TYPE: 'primary' })).toThrow(/NODE_TYPE/);
    expect(() => loadConfig({ SQL_DSN: 'oracle://x' })).toThrow(/SQL_DSN/);
    expect(() => loadConfig({ REDIS_CONN_STRING: 'localhost:6379' })).toThrow(/REDIS_CONN_STRING/);
    expect(() => loadConfig({ SESSION_SECRET: 'random_string' })).toThrow(/SESSION_SECRET/);
    expect(() => loadConfig({ INITIAL_ROOT_PASSWORD: 'short' })).toThrow(/INITIAL_ROOT_PASSWORD/);
  });

  it('accepts the DSN forms new-api users already have', () => {
    for (const dsn of [
      'postgres://u@127.0.0.1/db',
      'postgresql://u:p@db.internal:5433/gateway',
      'mysql://root@127.0.0.1:3306/oneapi',
      'root:pw@tcp(127.0.0.1:3306)/oneapi',
      'local',
    ])
      expect(loadConfig({ SQL_DSN: dsn }).sqlDsn).toBe(dsn);
    const withSecret = loadConfig({ SESSION_SECRET: 's3cret', CRYPTO_SECRET: '' });
    expect(withSecret.sessionSecretGenerated).toBe(false);
    expect(withSecret.cryptoSecret).toBe('s3cret');
  });

  it('keeps the quota journal beside the SQLite file unless QUOTA_JOURNAL_DIR moves it or turns it off', () => {
    expect(loadConfig({}).quotaJournalDir).toBe('data');
    expect(loadConfig({ SQLITE_PATH: '/var/lib/gateway/one.db' }).quotaJournalDir).toBe('/var/lib/gateway');
    expect(loadConfig({ QUOTA_JOURNAL_DIR: '/run/journal' }).quotaJournalDir).toBe('/run/journal');
    expect(loadConfig({ QUOTA_JOURNAL_DIR: 'off' }).quotaJournalDir).toBe('');
  });

  it('takes the time zone of budgets from TZ and refuses one Intl does not know', () => {
    expect(loadConfig({ TZ: 'Asia/Shanghai' }).timeZone).toBe('Asia/Shanghai');
    expect(loadConfig({}).timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(() => loadConfig({ TZ: 'Mars/Olympus' })).toThrow(/TZ/);
  });

  it("asks Intl for the system's time zone only when it is first read, not at start", () => {
    // Intl's first date format maps ICU's zone data (about 7 MB per process): the primary never reads the zone.
    const dateFormat = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      const config = loadConfig({});
      expect(dateFormat).not.toHaveBeenCalled();
      const zone = config.timeZone;
      expect(dateFormat).toHaveBeenCalledTimes(1);
      // Read again, the zone is the first read's: Intl is not asked twice.
      expect(config.timeZone).toBe(zone);
      expect(dateFormat).toHaveBeenCalledTimes(1);
      expect(zone).toBe(new Intl.DateTimeFormat().resolvedOptions().timeZone);
    } finally {
      dateFormat.mockRestore();
    }
  });

  it('runs one worker process per core unless WORKERS says how many', () => {
    expect(loadConfig({}).workers).toBe(availableParallelism());
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBe(availableParallelism());
    expect(loadConfig({ WORKERS: '1' }).workers).toBe(1);
    expect(loadConfig({ WORKERS: ' 4 ' }).workers).toBe(4);
    for (const wrong of ['0', '-2', 'many', '1.5', '65']) expect(() => loadConfig({ WORKERS: wrong })).toThrow(/WORKERS/);
  });

  it("tells a worker (WORKERS 1) how many workers its machine has, from the primary's setting", () => {
    expect(loadConfig({ WORKERS: '1', SWITCHBOARD_MACHINE_WORKERS: '2' }).machineWorkers).toBe(2);
    expect(loadConfig({ WORKERS: '3' }).machineWorkers).toBe(3);
    expect(loadConfig({ WORKERS: '1' }).machineWorkers).toBe(1);
  });
});
