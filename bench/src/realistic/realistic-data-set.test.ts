import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDataSet } from './dataset-build.ts';
import { dataSetShape, fullScale, modelName, tokenKey } from './dataset-shape.ts';
import { seededRandom, ZipfPicker } from './seeded-random.ts';
import { RealisticTraffic } from './traffic.ts';

describe('ZipfPicker', () => {
  it('picks the same ranks for the same seed, and rank r about 1/(r+1)^s as often as rank 0', () => {
    const picks = (seed: number) => {
      const picker = new ZipfPicker(100, 1.1, seededRandom(seed));
      return Array.from({ length: 200_000 }, () => picker.pick());
    };
    const first = picks(7);
    expect(picks(7)).toEqual(first);
    expect(picks(8)).not.toEqual(first);
    const counts = new Array<number>(100).fill(0);
    for (const rank of first) counts[rank] = (counts[rank] ?? 0) + 1;
    const picker = new ZipfPicker(100, 1.1, seededRandom(7));
    // Rank 0 takes 1 / H(100, 1.1), about 23 %, over 100 items; rank 9 about 10^-1.1 of that.
    expect(picker.share(0)).toBeCloseTo(0.234, 2);
    expect((counts[0] ?? 0) / first.length).toBeCloseTo(picker.share(0), 2);
    expect((counts[9] ?? 0) / (counts[0] ?? 1)).toBeCloseTo(10 ** -1.1, 1);
    expect(first.every((rank) => Number.isInteger(rank) && rank >= 0 && rank < 100)).toBe(true);
  });

  it('refuses an empty set', () => {
    expect(() => new ZipfPicker(0, 1.1, Math.random)).toThrow(/at least one item/);
  });
});

describe('the realistic data set', () => {
  const dir = mkdtempSync(join(tmpdir(), 'realistic-data-set-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('scales the full shape and keeps models, groups and the active set', () => {
    expect(dataSetShape(1)).toEqual({ ...fullScale });
    const small = dataSetShape(0.002);
    expect(small).toMatchObject({ users: 100, tokens: 200, models: 500, groups: 20, logs: 20_000, activeTokens: 100, activeModels: 100 });
    expect(() => dataSetShape(0)).toThrow(/above 0/);
    expect(() => dataSetShape(2)).toThrow(/at most 1/);
  });

  it('builds users, tokens, multi-key channels, abilities per group × model × channel and Zipf-spread logs', { timeout: 120_000 }, async () => {
    const shape = dataSetShape(0.002);
    const file = join(dir, 'small.sqlite');
    const now = 1_800_000_000;
    await buildDataSet('', file, shape, now, () => undefined);
    const sqlite = new Database(file, { readonly: true });
    try {
      const count = (statement: string) => (sqlite.prepare(statement).get() as { n: number }).n;
      expect(count('select count(*) as n from users')).toBe(100);
      expect(count('select count(*) as n from tokens')).toBe(200);
      expect(count('select count(*) as n from channels')).toBe(shape.channels);
      expect(count('select count(*) as n from logs')).toBe(20_000);
      // Every channel's abilities are its groups × its models, as new-api builds them.
      const channels = sqlite.prepare('select id, "group", models, key, status from channels').all() as Array<{
        id: number;
        group: string;
        models: string;
        key: string;
        status: number;
      }>;
      let expected = 0;
      for (const channel of channels) expected += channel.group.split(',').length * channel.models.split(',').length;
      expect(count('select count(*) as n from abilities')).toBe(expected);
      expect(count('select count(*) as n from abilities a join channels c on c.id = a.channel_id where a.enabled != (c.status = 1)')).toBe(0);
      expect(channels.some((channel) => channel.key.split('\n').length > 1)).toBe(true);
      // Each group serves every active model through at least one enabled channel.
      expect(
        count(`select count(distinct "group" || '/' || model) as n from abilities where enabled = 1 and model <= '${modelName(shape.activeModels - 1)}'`),
      ).toBe(shape.groups * shape.activeModels);
      // The active tokens are the ones the traffic sends, enabled, unexpired, their users enabled.
      const active = sqlite
        .prepare('select t.key, t.status, t.expired_time, u.status as user_status from tokens t join users u on u.id = t.user_id where t.id <= ?')
        .all(shape.activeTokens) as Array<{
        key: string;
        status: number;
        expired_time: number;
        user_status: number;
      }>;
      expect(active.map((token) => token.key)).toEqual(Array.from({ length: shape.activeTokens }, (_, index) => tokenKey(index)));
      expect(active.every((token) => token.status === 1 && token.expired_time === -1 && token.user_status === 1)).toBe(true);
      // Logs cover 30 days, their ids grow with time, and the busiest token has far more than the median one.
      const span = sqlite.prepare('select min(created_at) as first, max(created_at) as last from logs').get() as { first: number; last: number };
      expect(span.last - span.first).toBeGreaterThan(29 * 86_400);
      expect(count('select count(*) as n from logs a join logs b on b.id = a.id + 1 where b.created_at < a.created_at')).toBe(0);
      const perToken = (sqlite.prepare('select count(*) as n from logs group by token_id order by n desc').all() as Array<{ n: number }>).map((row) => row.n);
      expect(perToken[0] ?? 0).toBeGreaterThan(10 * (perToken[Math.floor(perToken.length / 2)] ?? 0));
      // Every log's user owns its token; its channel serves its model.
      expect(count('select count(*) as n from logs l join tokens t on t.id = l.token_id where t.user_id != l.user_id')).toBe(0);
      expect(
        count(
          `select count(*) as n from logs l where l.type = 2 and not exists (select 1 from abilities a where a.channel_id = l.channel_id and a.model = l.model_name)`,
        ),
      ).toBe(0);
      // The log indexes the migrations made are back; every log job's cursor stands past the generated logs.
      expect(count(`select count(*) as n from sqlite_master where type = 'index' and tbl_name = 'logs' and sql is not null`)).toBeGreaterThan(3);
      expect(count('select count(*) as n from switchboard_job_state where last_id = 20000')).toBeGreaterThanOrEqual(5);
      // The roll-ups count every generated log (the log page finds model, channel and group rows through
      // the hourly ones; a user's and a token name's totals come from the daily ones).
      expect(count('select sum(count) as n from switchboard_log_hourly')).toBe(20000);
      expect(count('select sum(count) as n from switchboard_log_hourly_channel_group')).toBe(20000);
      expect(count('select sum(count) as n from switchboard_log_daily_user_token')).toBe(20000);
      expect(count('select sum(count) as n from switchboard_log_daily_user_model')).toBe(20000);
    } finally {
      sqlite.close();
    }
  });

  it('sends the same token and model mix for the same seed, Zipf over the active sets', () => {
    const shape = dataSetShape(0.002);
    const sequence = (seed: number) => {
      const traffic = new RealisticTraffic(shape, true, seed);
      return Array.from({ length: 5000 }, () => traffic.next());
    };
    const first = sequence(3);
    expect(sequence(3)).toEqual(first);
    const tokens = new Set(first.map((request) => request.headers.authorization));
    expect(tokens.size).toBeGreaterThan(50);
    expect(first.every((request) => request.headers.authorization?.startsWith('Bearer sk-rt') && JSON.parse(request.body).stream === true)).toBe(true);
    const topShare = first.filter((request) => request.headers.authorization === `Bearer sk-${tokenKey(0)}`).length / first.length;
    expect(topShare).toBeGreaterThan(0.1);
  });
});
