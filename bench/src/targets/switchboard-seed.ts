import { defaultCompletionRatio, defaultModelRatio } from '../../../packages/contracts/src/default-pricing.ts';
import { insertReturningId } from '../../../packages/server/src/core/db/insert-id.ts';
import { migrateLogDatabase, migrateMainDatabase } from '../../../packages/server/src/core/db/migrate.ts';
import { openDatabase } from '../../../packages/server/src/core/platform/database.ts';
import { benchModels } from '../fake-upstream/behaviours.ts';
import { nativeModels } from './native-targets.ts';

/**
 * Bench pricing: ratio 1 (one quota unit per prompt token) and completion ratio 2, so every charge is
 * an integer and the reconciliation can demand equality to the unit.
 */
export const benchPricing = { modelRatio: 1, completionRatio: 2, groupRatio: 1 };

/** The quota a request with this usage must cost under `benchPricing`. */
export function expectedQuota(promptTokens: number, completionTokens: number): number {
  return Math.round((promptTokens + completionTokens * benchPricing.completionRatio) * benchPricing.modelRatio * benchPricing.groupRatio);
}

export interface SeededSwitchboard {
  /** The relay key callers send (`sk-` + 48 characters). */
  apiKey: string;
  userId: number;
  tokenId: number;
  /** A second user and key for the error-mode checks, kept apart from the reconciled account. */
  errorApiKey: string;
  errorUserId: number;
  /** A third account that only sends requests read to their end: its charges must match exactly. */
  cleanApiKey: string;
  cleanUserId: number;
  cleanTokenId: number;
  /** The key the channel sends upstream; the fake tallies usage under it. */
  upstreamKey: string;
  channelId: number;
}

const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
function randomKeyBody(): string {
  let key = '';
  for (let index = 0; index < 48; index += 1) key += alphabet[Math.floor(Math.random() * alphabet.length)];
  return key;
}

export const startingQuota = 1_000_000_000_000;

/**
 * Creates the schema and the rows a relay needs (a user with quota, a token, an OpenAI-type channel to
 * the fake upstream plus a Claude and a Gemini channel for the native paths, their abilities, bench pricing) directly in a fresh database, before Switchboard starts.
 */
export async function seedSwitchboard(
  sqlDsn: string,
  sqlitePath: string,
  upstreamOrigin: string,
  upstreamKey: string,
  extraOptions: Readonly<Record<string, string>> = {},
  tokenColumns: Readonly<Record<string, number | string>> = {},
): Promise<SeededSwitchboard> {
  const handle = await openDatabase(sqlDsn, sqlitePath);
  try {
    await migrateMainDatabase(handle.db, handle.dialect);
    await migrateLogDatabase(handle.db, handle.dialect);
    const now = Math.floor(Date.now() / 1000);
    const models = Object.values(benchModels);
    const addUser = async (username: string) => {
      const query = handle.db.insertInto('users').values({
        username,
        password: 'not-used-by-the-bench',
        display_name: username,
        role: 1,
        status: 1,
        email: '',
        github_id: '',
        wechat_id: '',
        telegram_id: '',
        linux_do_id: '',
        access_token: null,
        quota: startingQuota,
        used_quota: 0,
        request_count: 0,
        group: 'default',
        aff_code: username,
        aff_count: 0,
        aff_quota: 0,
        aff_history: 0,
        inviter_id: 0,
        setting: '',
        remark: '',
        created_at: now,
        last_login_at: 0,
        deleted_at: null,
      });
      return insertReturningId(query, handle.dialect);
    };
    const addToken = async (userId: number, name: string) => {
      const key = randomKeyBody();
      const query = handle.db.insertInto('tokens').values({
        user_id: userId,
        key,
        status: 1,
        name,
        created_time: now,
        accessed_time: now,
        expired_time: -1,
        remain_quota: startingQuota,
        unlimited_quota: 0,
        model_limits_enabled: 0,
        model_limits: '',
        allow_ips: '',
        used_quota: 0,
        group: '',
        deleted_at: null,
        ...tokenColumns,
      });
      return { key: `sk-${key}`, id: await insertReturningId(query, handle.dialect) };
    };
    const userId = await addUser('bench');
    const errorUserId = await addUser('bench-errors');
    const token = await addToken(userId, 'bench');
    const errorToken = await addToken(errorUserId, 'bench-errors');
    const cleanUserId = await addUser('bench-clean');
    const cleanToken = await addToken(cleanUserId, 'bench-clean');
    const addChannel = async (type: number, name: string, channelModels: readonly string[]) => {
      const id = await insertReturningId(
        handle.db.insertInto('channels').values({
          type,
          key: upstreamKey,
          open_ai_organization: '',
          test_model: '',
          status: 1,
          name,
          weight: 0,
          created_time: now,
          test_time: 0,
          response_time: 0,
          base_url: upstreamOrigin,
          other: '',
          balance: 0,
          balance_updated_time: 0,
          models: channelModels.join(','),
          group: 'default',
          used_quota: 0,
          model_mapping: '',
          status_code_mapping: '',
          priority: 0,
          auto_ban: 0,
          other_info: '',
          tag: null,
          setting: '',
          param_override: '',
          header_override: '',
          remark: '',
          settings: '',
        }),
        handle.dialect,
      );
      await handle.db
        .insertInto('abilities')
        .values(channelModels.map((model) => ({ group: 'default', model, channel_id: id, enabled: 1, priority: 0, weight: 0, tag: null })))
        .execute();
      return id;
    };
    const channelId = await addChannel(1, 'fake upstream', models);
    // The native paths' rows (issue 35): Claude (type 14) and Gemini (type 24) channels to the same fake,
    // under the same key, so the fake tallies their usage with the rest of the run's.
    await addChannel(14, 'fake upstream, Claude format', [nativeModels.claude]);
    await addChannel(24, 'fake upstream, Gemini format', [nativeModels.gemini]);
    const priced = [...models, ...Object.values(nativeModels)];
    const modelRatio = { ...defaultModelRatio, ...Object.fromEntries(priced.map((model) => [model, benchPricing.modelRatio])) };
    const completionRatio = { ...defaultCompletionRatio, ...Object.fromEntries(priced.map((model) => [model, benchPricing.completionRatio])) };
    await handle.db
      .insertInto('options')
      .values([
        { key: 'ModelRatio', value: JSON.stringify(modelRatio) },
        { key: 'CompletionRatio', value: JSON.stringify(completionRatio) },
        ...Object.entries(extraOptions).map(([key, value]) => ({ key, value })),
      ])
      .execute();
    return {
      apiKey: token.key,
      userId,
      tokenId: token.id,
      errorApiKey: errorToken.key,
      errorUserId,
      cleanApiKey: cleanToken.key,
      cleanUserId,
      cleanTokenId: cleanToken.id,
      upstreamKey,
      channelId,
    };
  } finally {
    await handle.close();
  }
}
