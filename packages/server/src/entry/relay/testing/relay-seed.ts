import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { ChannelStatus, TokenStatus } from '@switchboard/contracts';
import { fromBoolean } from '../../../core/db/dialect.ts';
import { insertReturningId } from '../../../core/db/insert-id.ts';
import { randomAlphanumeric } from '../../../core/platform/random.ts';
import type { TestApp } from '../../../testing/test-app.ts';

export interface SeedChannel {
  type?: number;
  name?: string;
  key: string;
  baseUrl: string;
  models: string[];
  groups?: string[];
  priority?: number;
  weight?: number;
  status?: number;
  autoBan?: boolean;
  modelMapping?: Record<string, string>;
  statusCodeMapping?: Record<string, string>;
  testModel?: string;
  /** The channel's `setting` JSON text (first-byte timeout, RPM/TPM ceilings). */
  setting?: string;
  /** new-api's `channel_info` JSON text (multi-key mode). */
  channelInfo?: string;
  /** new-api's request shaping columns, as stored (JSON text, possibly invalid). */
  paramOverride?: string;
  headerOverride?: string;
  /** new-api's `settings` JSON text (allow_service_tier, disable_store…). */
  settings?: string;
}

/**
 * Inserts a channel and its abilities (one per group × model) straight into the database, as the
 * console's channel editor would, then reloads the relay's channel cache.
 */
export async function seedChannel(testApp: TestApp, seed: SeedChannel): Promise<number> {
  const { db, dialect } = testApp.context.database;
  const status = seed.status ?? ChannelStatus.enabled;
  const groups = seed.groups ?? ['default'];
  const id = await insertReturningId(
    db.insertInto('channels').values({
      type: seed.type ?? 1,
      key: seed.key,
      open_ai_organization: '',
      test_model: seed.testModel ?? '',
      status,
      name: seed.name ?? `channel-${seed.key}`,
      weight: seed.weight ?? 0,
      created_time: testApp.context.clock.unixSeconds(),
      test_time: 0,
      response_time: 0,
      base_url: seed.baseUrl,
      other: '',
      balance: 0,
      balance_updated_time: 0,
      models: seed.models.join(','),
      group: groups.join(','),
      used_quota: 0,
      model_mapping: seed.modelMapping ? JSON.stringify(seed.modelMapping) : '',
      status_code_mapping: seed.statusCodeMapping ? JSON.stringify(seed.statusCodeMapping) : '',
      priority: seed.priority ?? 0,
      auto_ban: seed.autoBan === false ? 0 : 1,
      other_info: '',
      tag: null,
      setting: seed.setting ?? '',
      param_override: seed.paramOverride ?? '',
      header_override: seed.headerOverride ?? '',
      remark: '',
      settings: seed.settings ?? '',
      channel_info: seed.channelInfo ?? null,
    }),
    dialect,
  );
  const abilities = groups.flatMap((group) =>
    seed.models.map((model) => ({
      group,
      model,
      channel_id: id,
      enabled: fromBoolean(status === ChannelStatus.enabled),
      priority: seed.priority ?? 0,
      weight: seed.weight ?? 0,
      tag: null,
    })),
  );
  if (abilities.length > 0) await db.insertInto('abilities').values(abilities).execute();
  await testApp.app.relay.channels.reload();
  return id;
}

export interface SeedToken {
  remainQuota?: number;
  unlimited?: boolean;
  status?: number;
  expiredTime?: number;
  modelLimits?: string[];
  allowIps?: string;
  group?: string;
  name?: string;
}

/** Inserts a relay key for a user; returns its id and the `sk-` key a client sends. */
export async function seedToken(testApp: TestApp, userId: number, seed: SeedToken = {}): Promise<{ id: number; key: string; apiKey: string }> {
  const { db, dialect } = testApp.context.database;
  const key = randomAlphanumeric(48);
  const id = await insertReturningId(
    db.insertInto('tokens').values({
      user_id: userId,
      key,
      status: seed.status ?? TokenStatus.enabled,
      name: seed.name ?? 'test-token',
      created_time: testApp.context.clock.unixSeconds(),
      accessed_time: 0,
      expired_time: seed.expiredTime ?? -1,
      remain_quota: seed.remainQuota ?? 1_000_000,
      unlimited_quota: fromBoolean(seed.unlimited ?? false),
      model_limits_enabled: fromBoolean(seed.modelLimits !== undefined),
      model_limits: (seed.modelLimits ?? []).join(','),
      allow_ips: seed.allowIps ?? '',
      used_quota: 0,
      group: seed.group ?? '',
      deleted_at: null,
    }),
    dialect,
  );
  return { id, key, apiKey: `sk-${key}` };
}

/** Listens on 127.0.0.1 (a free port) so real clients can call the app; returns its base URL. */
export async function listenLocally(testApp: TestApp): Promise<string> {
  if (!testApp.app.server.listening) await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
}

/** The official OpenAI client pointed at the app, without its own retries. */
export function openaiClient(baseUrl: string, apiKey: string): OpenAI {
  return new OpenAI({ apiKey, baseURL: `${baseUrl}/v1`, maxRetries: 0, timeout: 20_000 });
}

/** Writes everything the ledger holds (quota deltas and logs). */
export async function flushLedger(testApp: TestApp): Promise<void> {
  await testApp.app.relay.flusher.flush();
  await testApp.app.relay.flusher.flush();
}

/** Quota columns of a token, its user and a channel, and the consume logs, after a flush. */
export async function ledgerState(testApp: TestApp, ids: { tokenId: number; userId: number; channelIds: number[] }) {
  await flushLedger(testApp);
  const { db } = testApp.context.database;
  const token = await db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', ids.tokenId).executeTakeFirstOrThrow();
  const user = await db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', ids.userId).executeTakeFirstOrThrow();
  const channels = await db
    .selectFrom('channels')
    .select(['id', 'used_quota', 'status', 'other_info'])
    .where('id', 'in', ids.channelIds.length > 0 ? ids.channelIds : [0])
    .execute();
  const logs = await testApp.context.logDatabase.db
    .selectFrom('logs')
    .selectAll()
    .where('token_id', '=', ids.tokenId)
    .where('type', '=', 2)
    .orderBy('id')
    .execute();
  return { token, user, channels, logs };
}
