import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../platform/database.ts';
import { safeParseJson } from '../../../platform/safe-json.ts';
import { startLocalServer, type RecordedRequest } from '../../../../testing/local-http-server.ts';
import { flushLedger } from '../../../../entry/relay/testing/relay-seed.ts';
import { sessionHeaders } from '../../../../testing/test-app.ts';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { adminAccessToken, type Flavor, fixtureEpoch, fixtureOptions, fixtureRows, passwords, tokenKeys } from '../__fixtures__/fixture-rows.ts';
import type { GormModel } from '../__fixtures__/gorm-ddl.ts';
import { loadFixture } from '../__fixtures__/load-fixture.ts';
import { startOnDatabase, type FixtureApp } from './fixture-app.ts';
import { diffSnapshots, type SchemaChange, type SchemaSnapshot, snapshotSchema } from './schema-snapshot.ts';

/** A few thousand logs, as the brief's "production-like" asks, and quick to load on every engine. */
const logCount = 3000;
const usage = { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 };

function bodyModel(request: RecordedRequest): string {
  const parsed = safeParseJson(request.body || '{}');
  const body: unknown = parsed.ok ? parsed.value : undefined;
  return typeof body === 'object' && body !== null && 'model' in body && typeof body.model === 'string' ? body.model : '';
}

const jsonOf = (text: string | undefined): unknown => {
  const parsed = safeParseJson(text ?? '');
  return parsed.ok ? parsed.value : undefined;
};

const openAiAnswer = (request: RecordedRequest) => ({
  json: {
    id: 'chatcmpl-fixture',
    object: 'chat.completion',
    created: 1,
    model: bodyModel(request) || 'deployment',
    choices: [{ index: 0, message: { role: 'assistant', content: 'hello from upstream' }, finish_reason: 'stop' }],
    usage,
  },
});

/** One fake provider speaking OpenAI, Azure, Anthropic and Gemini, each on its own path. */
async function startUpstream() {
  return startLocalServer({
    'POST /v1/chat/completions': openAiAnswer,
    'POST /openai/deployments/gpt-35-turbo/chat/completions': openAiAnswer,
    'POST /v1/messages': () => ({
      json: {
        id: 'msg_fixture',
        type: 'message',
        role: 'assistant',
        model: 'claude-3-5-haiku-20241022',
        content: [{ type: 'text', text: 'hello from claude' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 10, output_tokens: 20 },
      },
    }),
    'POST /v1beta/models/gemini-2.0-flash:generateContent': () => ({
      json: {
        candidates: [{ content: { role: 'model', parts: [{ text: 'hello from gemini' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 20, totalTokenCount: 30 },
      },
    }),
  });
}

export interface MoveOverExpectations {
  /** Cells the recorded migration steps rewrite, as `table#key.column`; every other change fails. */
  readonly recordedChanges?: readonly string[];
  /** The mapped channel types a one-api database ends with, by channel id. */
  readonly channelTypes?: Readonly<Record<number, number>>;
  /** Tables and columns the fixture has that nobody defines, for the start-up log line. */
  readonly unknownSchema?: readonly string[];
  /** Checks of this schema alone, given the running app. */
  readonly more?: (get: () => FixtureApp) => void;
}

/**
 * The whole move-over check for one schema on every engine: load the fixture as GORM made it,
 * snapshot, start Switchboard on it, snapshot again, then use it as its old users would.
 */
export function moveOverSuite(flavor: Flavor, models: readonly GormModel[], expectations: MoveOverExpectations = {}): void {
  const hasTasks = models.some((model) => model.table === 'tasks');

  describe.each(testDatabases())(`${flavor} opened in place on $dialect`, (database) => {
    let fixture: FixtureApp;
    let upstream: Awaited<ReturnType<typeof startUpstream>>;
    let drop: () => Promise<void>;
    let before: SchemaSnapshot;
    let after: SchemaSnapshot;

    beforeAll(async () => {
      upstream = await startUpstream();
      const created = await database.create();
      drop = created.drop;
      const raw = await openDatabase(created.sqlDsn, created.sqlitePath);
      try {
        await loadFixture(raw.db, raw.dialect, models, fixtureRows(flavor, raw.dialect, upstream.url, logCount).tables);
        before = await snapshotSchema(raw.db, raw.dialect);
      } finally {
        await raw.close();
      }
      fixture = await startOnDatabase(created);
      after = await snapshotSchema(fixture.context.database.db, database.dialect, Object.keys(before));
    }, 120_000);

    afterAll(async () => {
      await fixture?.close();
      await upstream?.close();
      await drop?.();
    });

    const inject = (options: InjectOptions) => fixture.app.inject(options);
    const headersOf = (userId: number) => sessionHeaders(fixture, userId);
    const listItems = (data: unknown): Array<Record<string, unknown>> => {
      if (Array.isArray(data)) return data as Array<Record<string, unknown>>;
      const items = (data as { items?: unknown } | null)?.items;
      return Array.isArray(items) ? (items as Array<Record<string, unknown>>) : [];
    };

    it('changes no existing column, index or row except the recorded steps', () => {
      const changes: SchemaChange[] = diffSnapshots(before, after);
      const recorded = new Set(expectations.recordedChanges ?? []);
      const unexpected = changes.filter((change) => ![...recorded].some((cell) => change.what.startsWith(`${cell}:`)));
      expect(unexpected).toEqual([]);
      // And every recorded step did happen.
      for (const cell of recorded)
        expect(
          changes.some((change) => change.what.startsWith(`${cell}:`)),
          cell,
        ).toBe(true);
      // Nothing of the old data went missing: every table's rows are all there.
      for (const [table, snapshot] of Object.entries(before)) expect(after[table]?.rows.size, table).toBeGreaterThanOrEqual(snapshot.rows.size);
    });

    it('logs every user in with the old password and rehashes it; disabled and deleted users stay out', async () => {
      const login = (username: string, password: string) =>
        inject({ method: 'POST', url: '/api/user/login', payload: { username, password } }).then((response) => response.json());
      for (const [username, id, password] of [
        ['root', 1, passwords.root.password],
        ['admin', 2, passwords.admin.password],
        ['alice', 3, passwords.alice.password],
        ['bob', 4, passwords.bob.password],
      ] as const) {
        const answer = await login(username, password);
        expect(answer.success, `${username}: ${answer.message}`).toBe(true);
        expect(answer.data.id).toBe(id);
        const stored = await fixture.context.database.db.selectFrom('users').select('password').where('id', '=', id).executeTakeFirstOrThrow();
        expect(stored.password.startsWith('$argon2id$'), username).toBe(true);
        expect((await login(username, password)).success).toBe(true);
      }
      expect((await login('alice', 'wrong-password')).success).toBe(false);
      expect((await login('mallory', passwords.disabled.password)).success).toBe(false);
      const deletedName = flavor === 'one-api' ? 'deleted_0f8e6a4c-1d2b-4c3a-9e8f-7a6b5c4d3e2f' : 'gone';
      expect((await login(deletedName, passwords.deleted.password)).success).toBe(false);
    });

    it('accepts the old access token of the console API', async () => {
      const answer = (await inject({ method: 'GET', url: '/api/user/self', headers: { authorization: adminAccessToken, 'new-api-user': '2' } })).json();
      expect(answer.success).toBe(true);
      expect(answer.data.username).toBe('admin');
    });

    it('relays old API keys through each channel with its old key and settings', async () => {
      const chat = (key: string, model: string) =>
        inject({
          method: 'POST',
          url: '/v1/chat/completions',
          headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
          payload: { model, messages: [{ role: 'user', content: 'hi' }] },
        });
      const sent = (path: string) => upstream.requests.filter((request) => request.url.split('?')[0] === path).at(-1);

      // OpenAI with its model mapping.
      const mapped = await chat(tokenKeys.main, 'gpt-4o');
      expect(mapped.statusCode, mapped.body).toBe(200);
      expect(bodyModel(sent('/v1/chat/completions') as RecordedRequest)).toBe('gpt-4o-2024-08-06');
      expect(sent('/v1/chat/completions')?.headers.authorization).toBe('Bearer sk-upstream-openai-0001');
      // Azure with its api-version (one-api keeps it in `config`).
      const azure = await chat(tokenKeys.main, 'gpt-35-turbo');
      expect(azure.statusCode, azure.body).toBe(200);
      const azureRequest = upstream.requests.find((request) => request.url.startsWith('/openai/deployments/gpt-35-turbo/'));
      expect(azureRequest?.url).toContain('api-version=2024-10-21');
      expect(azureRequest?.headers['api-key']).toBe('azure-upstream-key');
      // Anthropic, native format.
      const claude = await chat(tokenKeys.limited, 'claude-3-5-haiku-20241022');
      expect(claude.statusCode, claude.body).toBe(200);
      expect(claude.json().choices[0].message.content).toBe('hello from claude');
      expect(sent('/v1/messages')?.headers['x-api-key']).toBe('sk-ant-upstream-0003');
      // Gemini, native format.
      const gemini = await chat(tokenKeys.main, 'gemini-2.0-flash');
      expect(gemini.statusCode, gemini.body).toBe(200);
      const geminiRequest = sent('/v1beta/models/gemini-2.0-flash:generateContent');
      expect(geminiRequest?.headers['x-goog-api-key'] ?? geminiRequest?.url).toContain('gemini-upstream-key-0004');

      // The token limits of the old rows hold.
      expect((await chat(tokenKeys.limited, 'gpt-4o')).statusCode).toBe(403);
      expect((await chat(tokenKeys.ipLocked, 'gpt-4o-mini')).statusCode).toBe(403);
      expect((await chat(tokenKeys.expired, 'gpt-4o-mini')).statusCode).toBe(401);
      if (flavor !== 'one-api') expect((await chat(tokenKeys.deleted, 'gpt-4o-mini')).statusCode).toBe(401);
      if (flavor === 'one-api') {
        // one-api's API2D (2) and DeepSeek (36), relayed as OpenAI (1) and DeepSeek (43).
        expect((await chat(tokenKeys.main, 'gpt-3.5-turbo')).statusCode).toBe(200);
        expect(sent('/v1/chat/completions')?.headers.authorization).toBe('Bearer fk-api2d-0006');
        expect((await chat(tokenKeys.main, 'deepseek-chat')).statusCode).toBe(200);
        expect(sent('/v1/chat/completions')?.headers.authorization).toBe('Bearer sk-deepseek-0007');
        // DeepL (38) has no provider here: disabled, never sent to the vendor 38 means here.
        expect((await chat(tokenKeys.main, 'deepl-en')).statusCode).not.toBe(200);
      }
      if (flavor === 'new-api-current') {
        // The multi-key channel sends one of its keys each time (chosen at random here, not by
        // channel_info's polling mode).
        for (let turn = 0; turn < 4; turn += 1) expect((await chat(tokenKeys.main, 'gpt-4.1-nano')).statusCode).toBe(200);
        const keys = upstream.requests.filter((request) => bodyModel(request) === 'gpt-4.1-nano').map((request) => request.headers.authorization);
        expect(keys).toHaveLength(4);
        for (const key of keys) expect(['Bearer sk-multi-a', 'Bearer sk-multi-b']).toContain(key);
      }
      const vip = await chat(tokenKeys.vip, 'gpt-4o-mini');
      expect(vip.statusCode, vip.body).toBe(200);

      // The old ratios price the request: (10 prompt + 20 completion × 4) × 0.075 × group ratio.
      await flushLedger(fixture);
      const consumed = await fixture.context.logDatabase.db
        .selectFrom('logs')
        .select(['quota', 'model_name', 'channel_id', 'token_id'])
        .where('type', '=', 2)
        .where('model_name', '=', 'gpt-4o-mini')
        .where('token_id', '=', 4)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      expect(consumed?.channel_id).toBe(1);
      // bob's group is vip: ratio 1.5.
      expect(consumed?.quota).toBe(Math.round((10 + 20 * 4) * 0.075 * 1.5));
    });

    it('lists the old logs and their totals', async () => {
      const admin = await headersOf(2);
      const page = (await inject({ method: 'GET', url: '/api/log/?p=1&page_size=10&start_timestamp=0', headers: admin })).json();
      expect(page.success).toBe(true);
      expect(page.data.total).toBeGreaterThanOrEqual(logCount);
      const alice = await headersOf(3);
      const own = (await inject({ method: 'GET', url: '/api/log/self/?p=1&page_size=10&start_timestamp=0', headers: alice })).json();
      expect(own.data.total).toBeGreaterThanOrEqual(logCount / 2);
      const expected = await fixture.context.logDatabase.db
        .selectFrom('logs')
        .select(sql<number>`sum(quota)`.as('quota'))
        .where('type', '=', 2)
        .executeTakeFirstOrThrow();
      const stat = (await inject({ method: 'GET', url: '/api/log/stat?type=2&start_timestamp=0', headers: admin })).json();
      expect(stat.success).toBe(true);
      expect(stat.data.quota).toBe(Number(expected.quota));
    });

    if (models.some((model) => model.table === 'quota_data'))
      it("charts the old dashboard buckets (new-api's quota_data)", async () => {
        const alice = await headersOf(3);
        const url = `/api/data/self?start_timestamp=${fixtureEpoch - 3 * 86_400}&end_timestamp=${fixtureEpoch}`;
        const answer = (await inject({ method: 'GET', url, headers: alice })).json();
        expect(answer.success).toBe(true);
        const rows = answer.data as Array<{ count: number; quota: number }>;
        const expected = fixtureRows(flavor, database.dialect, '', 0).tables.quota_data?.filter((row) => row.user_id === 3) ?? [];
        expect(rows.reduce((sum, row) => sum + row.count, 0)).toBe(expected.reduce((sum, row) => sum + Number(row.count), 0));
        expect(rows.reduce((sum, row) => sum + row.quota, 0)).toBe(expected.reduce((sum, row) => sum + Number(row.quota), 0));
      });

    it('honours the old options', async () => {
      const status = (await inject({ method: 'GET', url: '/api/status' })).json();
      expect(status.data.system_name).toBe(fixtureOptions.SystemName);
      const notice = (await inject({ method: 'GET', url: '/api/notice' })).json();
      expect(notice.data).toBe(fixtureOptions.Notice);
      const root = await headersOf(1);
      const options = (await inject({ method: 'GET', url: '/api/option/', headers: root })).json();
      const byKey = new Map((options.data as Array<{ key: string; value: string }>).map((option) => [option.key, option.value]));
      expect(jsonOf(byKey.get('ModelRatio'))).toEqual(jsonOf(fixtureOptions.ModelRatio));
      expect(Object.keys(jsonOf(byKey.get('ModelRatio')) as object).length).toBeGreaterThan(300);
      expect(byKey.has('SMTPToken')).toBe(false);
    });

    it('keeps soft-deleted rows out of sight', async () => {
      const root = await headersOf(1);
      // The administrator's list shows deregistered users tagged (new-api lists them unscoped); only user 6 is.
      const users = listItems((await inject({ method: 'GET', url: '/api/user/?p=0&page_size=100', headers: root })).json().data);
      expect(users.filter((user) => user.DeletedAt !== null).map((user) => user.id)).toEqual([6]);
      expect((await inject({ method: 'GET', url: '/api/user/self', headers: await headersOf(6) })).json().success).toBe(false);
      const alice = await headersOf(3);
      const tokens = listItems((await inject({ method: 'GET', url: '/api/token/?p=0&size=100', headers: alice })).json().data);
      expect(tokens.map((token) => token.name).sort()).toEqual(['expired', 'ip-locked', 'limited', 'main']);
      const codes = listItems((await inject({ method: 'GET', url: '/api/redemption/?p=0&page_size=100', headers: root })).json().data);
      expect(codes.map((code) => code.id).sort()).toEqual([1, 2]);
    });

    if (hasTasks)
      it('shows the old drawings and music tasks', async () => {
        const alice = await headersOf(3);
        const drawings = listItems((await inject({ method: 'GET', url: '/api/mj/self?p=0&page_size=100', headers: alice })).json().data);
        expect(drawings.map((drawing) => drawing.mj_id).sort()).toEqual(['1712345678901', '1712345678902']);
        const tasks = listItems((await inject({ method: 'GET', url: '/api/task/self?p=0&page_size=100', headers: alice })).json().data);
        expect(tasks.map((task) => task.task_id).sort()).toEqual(['suno-task-0001', 'suno-task-0002']);
        const root = await headersOf(1);
        const all = listItems((await inject({ method: 'GET', url: '/api/task/?p=0&page_size=100', headers: root })).json().data);
        expect(all).toHaveLength(3);
      });

    if (flavor !== 'one-api')
      it('has no move-over notice for the root on a new-api database', async () => {
        expect((await inject({ method: 'GET', url: '/api/move-over', headers: await headersOf(1) })).json()).toMatchObject({ success: true, data: null });
      });

    it('says in one log line which tables and columns it does not know', () => {
      const lines = fixture.logLines().filter((line) => line.includes('does not know'));
      const unknown = expectations.unknownSchema ?? [];
      expect(lines).toHaveLength(unknown.length > 0 ? 1 : 0);
      for (const name of unknown) expect(lines[0]).toContain(name);
    });

    if (expectations.channelTypes !== undefined)
      it('maps the channel types', async () => {
        const rows = await fixture.context.database.db.selectFrom('channels').select(['id', 'type']).orderBy('id').execute();
        const types = Object.fromEntries(rows.map((row) => [row.id, row.type]));
        expect(types).toMatchObject(expectations.channelTypes ?? {});
      });

    expectations.more?.(() => fixture);
  });
}
