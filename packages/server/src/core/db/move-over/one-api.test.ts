import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { systemClock } from '../../platform/clock.ts';
import { sessionHeaders } from '../../../testing/test-app.ts';
import { oneApiMappingMigration } from '../migrations/0024-one-api-mapping.ts';
import { oneApiModels } from './__fixtures__/one-api.ts';
import { moveOverSuite } from './testing/move-over-suite.ts';

moveOverSuite('one-api', oneApiModels, {
  // The mapping step's rewrites (migration 0024), each recorded in switchboard_one_api_channels.
  recordedChanges: [
    'channels#2.other', // Azure's api-version, from one-api's `config`
    'channels#6.type', // API2D → OpenAI at its own base URL
    'channels#7.type', // DeepSeek 36 → 43
    'channels#8.type', // Baichuan → OpenAI …
    'channels#8.base_url', // … at Baichuan's address
    'channels#9.status', // DeepL: no provider here, disabled …
    'abilities#default|deepl-en|9.enabled', // … and out of routing
    'channels#10.type', // Cloudflare 37 → 39 …
    'channels#10.other', // … with its account id from `config`
  ],
  channelTypes: { 1: 1, 2: 3, 3: 14, 4: 24, 5: 1, 6: 1, 7: 43, 8: 1, 9: 38, 10: 39 },
  more(get) {
    let firstReport: unknown;
    it('records the step once, with the old values, and says so in the log', async () => {
      const { db, dialect } = get().context.database;
      const origin = await db.selectFrom('switchboard_move_over').selectAll().where('name', '=', 'origin').executeTakeFirstOrThrow();
      expect(origin.source).toBe('one-api');
      expect(Number(origin.mapped_at)).toBeGreaterThan(0);
      const report = JSON.parse(origin.report ?? '{}');
      firstReport = report;
      expect(report.channels.map((channel: { id: number }) => channel.id)).toEqual([2, 6, 7, 8, 9, 10]);
      expect(report.channels.find((channel: { id: number }) => channel.id === 9)).toMatchObject({ vendor: 'DeepL', disabled: true });
      expect(report).toMatchObject({ tokensWithModelLimits: 1, tokensWithAllowIps: 1, deletedUsers: 1 });
      const recorded = await db.selectFrom('switchboard_one_api_channels').selectAll().orderBy('channel_id').execute();
      expect(recorded.map((row) => [row.channel_id, row.one_api_type, row.type])).toEqual([
        [2, 3, 3],
        [6, 2, 1],
        [7, 36, 43],
        [8, 26, 1],
        [9, 38, 38],
        [10, 37, 39],
      ]);
      expect(recorded.find((row) => row.channel_id === 8)?.base_url_before).toBe('');
      expect(
        get()
          .logLines()
          .filter((line) => line.includes('one-api database mapped')),
      ).toHaveLength(1);

      // The tokens' one-api limits now read as new-api's.
      const tokens = await db
        .selectFrom('tokens')
        .select(['id', 'model_limits', 'model_limits_enabled', 'allow_ips'])
        .where('id', 'in', [2, 3])
        .orderBy('id')
        .execute();
      expect(tokens[0]).toMatchObject({ model_limits: 'gpt-4o-mini,claude-3-5-haiku-20241022' });
      expect(Boolean(Number(tokens[0]?.model_limits_enabled))).toBe(true);
      expect(tokens[1]?.allow_ips).toBe('10.9.9.9/32\n10.9.8.0/24');

      // Run again (as if its record were lost): nothing is mapped twice.
      const channelsBefore = await db.selectFrom('channels').selectAll().orderBy('id').execute();
      await db.updateTable('switchboard_move_over').set({ mapped_at: 0 }).where('name', '=', 'origin').execute();
      const notes: string[] = [];
      await oneApiMappingMigration(dialect, () => systemClock.unixSeconds(), notes).up(db);
      expect(await db.selectFrom('channels').selectAll().orderBy('id').execute()).toEqual(channelsBefore);
      const again = JSON.parse((await db.selectFrom('switchboard_move_over').select('report').executeTakeFirstOrThrow()).report ?? '{}');
      expect(again).toMatchObject({ channels: [], tokensWithModelLimits: 0, tokensWithAllowIps: 0, deletedUsers: 0 });
    });

    it("shows the root the step's report once, until dismissed", async () => {
      const fixture = get();
      // Put the first run's report back (the idempotency check above replaced it with an empty one).
      await fixture.context.database.db
        .updateTable('switchboard_move_over')
        .set({ report: JSON.stringify(firstReport) })
        .execute();
      const root = await sessionHeaders(fixture, 1);
      const admin = await sessionHeaders(fixture, 2);
      const notice = (await fixture.app.inject({ method: 'GET', url: '/api/move-over', headers: root })).json();
      expect(notice.data).toMatchObject({ source: 'one-api', deletedUsers: 1 });
      expect(notice.data.channels).toHaveLength(6);
      expect((await fixture.app.inject({ method: 'GET', url: '/api/move-over', headers: admin })).json().success).toBe(false);
      expect((await fixture.app.inject({ method: 'POST', url: '/api/move-over/dismiss', headers: admin })).json().success).toBe(false);
      expect((await fixture.app.inject({ method: 'POST', url: '/api/move-over/dismiss', headers: root })).json().success).toBe(true);
      expect((await fixture.app.inject({ method: 'GET', url: '/api/move-over', headers: root })).json().data).toBeNull();
    });

    it("puts one-api's channels back with the README's statements", async () => {
      const { db } = get().context.database;
      const readme = readFileSync(new URL('../../../../../../README.md', import.meta.url), 'utf8');
      const block = /```sql\n(?<statements>[\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Moving from new-api or one-api')))?.groups?.statements ?? '';
      const statements = block
        .split(';')
        .map((statement) => statement.trim())
        .filter(Boolean);
      expect(statements).toHaveLength(2);
      for (const statement of statements) await sql.raw(statement).execute(db);
      const channels = await db.selectFrom('channels').select(['id', 'type', 'base_url', 'other', 'status']).orderBy('id').execute();
      expect(channels.map((channel) => channel.type)).toEqual([1, 3, 14, 24, 1, 2, 36, 26, 38, 37]);
      expect(channels.find((channel) => channel.id === 8)?.base_url).toBe('');
      expect(channels.find((channel) => channel.id === 9)?.status).toBe(1);
      expect(channels.find((channel) => channel.id === 10)?.other).toBe('');
      const deepl = await db.selectFrom('abilities').select('enabled').where('channel_id', '=', 9).executeTakeFirstOrThrow();
      expect(Boolean(Number(deepl.enabled))).toBe(true);
    });
  },
});
