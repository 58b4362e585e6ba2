/* eslint-disable @typescript-eslint/no-explicit-any -- the migration reads one-api's own columns, not in db/schema.ts */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { fromBoolean, sqlTimestamp } from '../dialect.ts';
import { ensureTable } from '../ensure-tables.ts';
import { moveOver, oneApiChannels } from '../move-over/move-over-tables.ts';
import { allowIpsFromSubnet, type ChannelMappingNote, mapOneApiChannel, mappingNote, type OneApiChannel } from '../move-over/one-api-mapping.ts';

/** What the step did, kept as JSON in `switchboard_move_over.report` for the console's notice. */
export interface OneApiMappingReport {
  readonly channels: readonly ChannelMappingNote[];
  readonly tokensWithModelLimits: number;
  readonly tokensWithAllowIps: number;
  readonly deletedUsers: number;
}

async function columnsOf(db: Kysely<any>, table: string): Promise<Set<string>> {
  const found = (await db.introspection.getTables()).find((candidate) => candidate.name === table);
  return new Set(found?.columns.map((column) => column.name) ?? []);
}

async function mapChannels(db: Kysely<any>, now: number): Promise<ChannelMappingNote[]> {
  const hasConfig = (await columnsOf(db, 'channels')).has('config');
  const done = new Set((await db.selectFrom(oneApiChannels.name).select('channel_id').execute()).map((row) => Number(row.channel_id)));
  const rows = await db
    .selectFrom('channels')
    .select(['id', 'name', 'type', 'base_url', 'other', 'status', ...(hasConfig ? ['config'] : [])])
    .orderBy('id')
    .execute();
  const notes: ChannelMappingNote[] = [];
  for (const row of rows) {
    const channel: OneApiChannel = {
      id: Number(row.id),
      name: String(row.name ?? ''),
      type: Number(row.type),
      base_url: row.base_url ?? null,
      other: row.other ?? null,
      config: row.config ?? null,
      status: Number(row.status),
    };
    if (done.has(channel.id)) continue;
    const mapped = mapOneApiChannel(channel);
    if (!mapped) continue;
    await db
      .insertInto(oneApiChannels.name)
      .values({
        channel_id: channel.id,
        one_api_type: channel.type,
        type: mapped.type,
        base_url_before: channel.base_url,
        other_before: channel.other,
        status_before: channel.status,
        mapped_at: now,
      })
      .execute();
    await db.updateTable('channels').set(mapped).where('id', '=', channel.id).execute();
    if (mapped.status !== channel.status)
      await db
        .updateTable('abilities')
        .set({ enabled: fromBoolean(false) })
        .where('channel_id', '=', channel.id)
        .execute();
    notes.push(mappingNote(channel, mapped));
  }
  return notes;
}

/** one-api's `models` and `subnet` become the token's model limits and IP allow-list (only where those are still empty). */
async function mapTokens(db: Kysely<any>): Promise<{ models: number; subnets: number }> {
  const columns = await columnsOf(db, 'tokens');
  let models = 0;
  let subnets = 0;
  if (columns.has('models')) {
    const rows = await db.selectFrom('tokens').select(['id', 'models']).where('models', '<>', '').where('models', 'is not', null).execute();
    for (const row of rows) {
      const result = await db
        .updateTable('tokens')
        .set({ model_limits: String(row.models), model_limits_enabled: fromBoolean(true) })
        .where('id', '=', row.id)
        .where((eb) => eb.or([eb('model_limits', '=', ''), eb('model_limits', 'is', null)]))
        .executeTakeFirst();
      models += Number(result.numUpdatedRows);
    }
  }
  if (columns.has('subnet')) {
    const rows = await db.selectFrom('tokens').select(['id', 'subnet']).where('subnet', '<>', '').where('subnet', 'is not', null).execute();
    for (const row of rows) {
      const result = await db
        .updateTable('tokens')
        .set({ allow_ips: allowIpsFromSubnet(String(row.subnet)) })
        .where('id', '=', row.id)
        .where((eb) => eb.or([eb('allow_ips', '=', ''), eb('allow_ips', 'is', null)]))
        .executeTakeFirst();
      subnets += Number(result.numUpdatedRows);
    }
  }
  return { models, subnets };
}

/** one-api deletes a user by setting status 3 (and renaming it); here that is `deleted_at`. */
async function mapDeletedUsers(db: Kysely<any>, dialect: SqlDialect, now: number): Promise<number> {
  const result = await db
    .updateTable('users')
    .set({ deleted_at: sqlTimestamp(new Date(now * 1000), dialect) })
    .where('status', '=', 3)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The one-api step (issue 21): runs once on a database first opened when it was one-api's (the
 * origin row the schema survey wrote before 0001). Every rewritten channel is recorded with its old
 * values in `switchboard_one_api_channels` first, so the step is idempotent and can be undone; the
 * rest only fills columns 0001 added. `notes` receives one line for the start-up log.
 */
export function oneApiMappingMigration(dialect: SqlDialect, clock: () => number, notes: string[]): Migration {
  return {
    async up(db: Kysely<any>) {
      await ensureTable(db, moveOver, dialect);
      await ensureTable(db, oneApiChannels, dialect);
      const origin = await db.selectFrom(moveOver.name).select(['source', 'mapped_at']).where('name', '=', 'origin').executeTakeFirst();
      if (origin?.source !== 'one-api' || Number(origin.mapped_at) > 0) return;
      const now = clock();
      const channels = await mapChannels(db, now);
      const tokens = await mapTokens(db);
      const deletedUsers = await mapDeletedUsers(db, dialect, now);
      const report: OneApiMappingReport = { channels, tokensWithModelLimits: tokens.models, tokensWithAllowIps: tokens.subnets, deletedUsers };
      await db
        .updateTable(moveOver.name)
        .set({ report: JSON.stringify(report), mapped_at: now })
        .where('name', '=', 'origin')
        .execute();
      const disabled = channels.filter((channel) => channel.disabled).map((channel) => `#${channel.id} ${channel.vendor}`);
      notes.push(
        `one-api database mapped: ${channels.length} channel(s) rewritten to Switchboard's type numbers` +
          (disabled.length > 0 ? ` (disabled, vendor not supported: ${disabled.join(', ')})` : '') +
          `, ${tokens.models} token model list(s) and ${tokens.subnets} subnet list(s) carried over, ${deletedUsers} deleted user(s) marked; ` +
          'old values are kept in switchboard_one_api_channels',
      );
    },
  };
}
