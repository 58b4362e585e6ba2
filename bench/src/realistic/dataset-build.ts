import { sql } from 'kysely';
import { ChannelStatsRepository } from '../../../packages/server/src/entry/api/data/channel-stats.repository.ts';
import { QuotaDataRepository } from '../../../packages/server/src/entry/api/data/quota-data.repository.ts';
import { rollUpLogs } from '../../../packages/server/src/entry/api/log/log-hourly-rollup.ts';
import { logHourlyRepositories } from '../../../packages/server/src/entry/api/log/log-hourly.repository.ts';
import { migrateLogDatabase, migrateMainDatabase } from '../../../packages/server/src/core/db/migrate.ts';
import type { LogCursorAggregation } from '../../../packages/server/src/domain/logs/log-cursor-aggregation.ts';
import { openDatabase } from '../../../packages/server/src/core/platform/database.ts';
import { type BulkWriter, openBulkWriter } from './bulk-writer.ts';
import {
  abilityRows,
  channelId,
  channelShape,
  type DataSetShape,
  generateLogs,
  logColumns,
  tokenKey,
  tokenName,
  tokenOwner,
  userGroup,
  userId,
  userName,
} from './dataset-shape.ts';

/** A user's balance: far above what a bench run spends, varied as real balances are. */
const userQuota = (index: number) => 10_000_000_000 + (index % 1000) * 1_000_000;

/** Rows handed to the writer per call (one transaction each). */
const batchRows = 50_000;

/** Placeholder upstream of the cached channels; each run points them at its fake upstream. */
export const cachedUpstream = 'http://127.0.0.1:9';

export interface BuildFigures {
  seconds: { schema: number; rows: number; logs: number; indexes: number; rollUps: number };
  abilities: number;
}

/**
 * Builds the realistic data set into an empty database with the product's own migrations (so the
 * columns are the product's), then the rows in bulk, the log indexes rebuilt after the log rows, the
 * hourly roll-ups caught up (the log page reads them), and the cursors of the other log jobs (channel
 * stats, quota data) set past the generated logs, so a gateway started on it does not spend its first
 * minutes aggregating them.
 */
export async function buildDataSet(
  sqlDsn: string,
  sqlitePath: string,
  shape: DataSetShape,
  now: number,
  progress: (message: string) => void,
): Promise<BuildFigures> {
  const timer = stopwatch();
  const handle = await openDatabase(sqlDsn, sqlitePath);
  try {
    await migrateMainDatabase(handle.db, handle.dialect);
    await migrateLogDatabase(handle.db, handle.dialect);
  } finally {
    await handle.close();
  }
  const schema = timer.lap();
  const writer = await openBulkWriter(sqlDsn, sqlitePath);
  let written: Omit<BuildFigures, 'seconds'> & { seconds: Omit<BuildFigures['seconds'], 'schema' | 'rollUps'> };
  try {
    written = await writeRows(writer, shape, now, timer, progress);
  } finally {
    await writer.close();
  }
  await catchUpLogCursors(sqlDsn, sqlitePath, now);
  const rollUps = timer.lap();
  progress(`  log roll-ups caught up (other log job cursors set past the logs) in ${rollUps.toFixed(0)} s`);
  return { seconds: { schema, ...written.seconds, rollUps }, abilities: written.abilities };
}

async function writeRows(writer: BulkWriter, shape: DataSetShape, now: number, timer: ReturnType<typeof stopwatch>, progress: (message: string) => void) {
  await writeUsers(writer, shape, now);
  await writeTokens(writer, shape, now);
  const abilities = await writeChannels(writer, shape, now);
  if (writer.dialect === 'postgres') {
    // Ids were written explicitly: the sequences must continue after them.
    for (const table of ['users', 'tokens', 'channels'])
      await writer.exec(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from "${table}"))`);
  }
  const rows = timer.lap();
  progress(`  users, tokens, channels and ${abilities.toLocaleString('en')} abilities in ${rows.toFixed(0)} s`);
  const definitions = await dropLogIndexes(writer);
  let written = 0;
  await generateLogs(shape, now, batchRows, async (values, count) => {
    await writer.insert('logs', logColumns, values, count);
    written += count;
    if (written % 1_000_000 < batchRows) progress(`  ${written.toLocaleString('en')} of ${shape.logs.toLocaleString('en')} logs`);
  });
  const logs = timer.lap();
  for (const definition of definitions) await writer.exec(definition);
  await writer.exec('analyze');
  const indexes = timer.lap();
  progress(`  logs in ${logs.toFixed(0)} s, their ${definitions.length} indexes rebuilt in ${indexes.toFixed(0)} s`);
  return { seconds: { rows, logs, indexes }, abilities };
}

function stopwatch() {
  let last = performance.now();
  return {
    lap() {
      const now = performance.now();
      const seconds = (now - last) / 1000;
      last = now;
      return seconds;
    },
  };
}

async function writeUsers(writer: BulkWriter, shape: DataSetShape, now: number): Promise<void> {
  const columns = [
    'id',
    'username',
    'password',
    'display_name',
    'role',
    'status',
    'email',
    'github_id',
    'wechat_id',
    'telegram_id',
    'linux_do_id',
    'quota',
    'used_quota',
    'request_count',
    'group',
    'aff_code',
    'aff_count',
    'aff_quota',
    'aff_history',
    'inviter_id',
    'setting',
    'remark',
    'created_at',
    'last_login_at',
  ];
  await writeInBatches(writer, 'users', columns, shape.users, (index) => {
    // Users without an active token: a few are disabled, as in any deployment.
    const status = index >= shape.activeTokens && index % 97 === 0 ? 2 : 1;
    return [
      userId(index),
      userName(index),
      'not-used-by-the-bench',
      userName(index),
      1,
      status,
      `${userName(index)}@example.com`,
      '',
      '',
      '',
      '',
      userQuota(index),
      (index % 500) * 10_000,
      index % 5000,
      userGroup(index, shape),
      `aff${index.toString(36)}`,
      0,
      0,
      0,
      index > 100 && index % 10 === 0 ? 1 + (index % 100) : 0,
      '',
      '',
      now - 40 * 86_400 + (index % 86_400),
      now - (index % 30) * 86_400,
    ];
  });
}

async function writeTokens(writer: BulkWriter, shape: DataSetShape, now: number): Promise<void> {
  const columns = [
    'id',
    'user_id',
    'key',
    'status',
    'name',
    'created_time',
    'accessed_time',
    'expired_time',
    'remain_quota',
    'unlimited_quota',
    'model_limits_enabled',
    'model_limits',
    'allow_ips',
    'used_quota',
    'group',
  ];
  await writeInBatches(writer, 'tokens', columns, shape.tokens, (index) => {
    const active = index < shape.activeTokens;
    // Inactive tokens include disabled (2), expired (3) and exhausted (4) ones; active ones all work.
    const status = active ? 1 : index % 50 === 0 ? 2 : index % 71 === 0 ? 3 : index % 89 === 0 ? 4 : 1;
    const unlimited = index % 5 < 2 ? 1 : 0;
    return [
      index + 1,
      userId(tokenOwner(index, shape)),
      tokenKey(index),
      status,
      tokenName(index),
      now - 30 * 86_400,
      now - (index % 30) * 86_400,
      status === 3 ? now - 86_400 : -1,
      5_000_000_000,
      unlimited,
      0,
      '',
      '',
      (index % 300) * 1000,
      '',
    ];
  });
}

async function writeChannels(writer: BulkWriter, shape: DataSetShape, now: number): Promise<number> {
  const columns = [
    'id',
    'type',
    'key',
    'open_ai_organization',
    'test_model',
    'status',
    'name',
    'weight',
    'created_time',
    'test_time',
    'response_time',
    'base_url',
    'other',
    'balance',
    'balance_updated_time',
    'models',
    'group',
    'used_quota',
    'model_mapping',
    'status_code_mapping',
    'priority',
    'auto_ban',
    'other_info',
    'tag',
    'setting',
    'param_override',
    'header_override',
    'remark',
    'settings',
  ];
  const channels = Array.from({ length: shape.channels }, (_, index) => channelShape(index, shape));
  await writeInBatches(writer, 'channels', columns, shape.channels, (index) => {
    const channel = channels[index];
    if (!channel) throw new Error(`no channel ${index}`);
    // Several keys one per line: how new-api's multi-key channels hold them and how Switchboard reads them.
    return [
      channelId(index),
      1,
      channel.keys.join('\n'),
      '',
      channel.models[0] ?? '',
      channel.enabled ? 1 : 3,
      `channel ${index + 1}`,
      channel.weight,
      now - 60 * 86_400,
      0,
      100 + (index % 900),
      cachedUpstream,
      '',
      0,
      0,
      channel.models.join(','),
      channel.groups.join(','),
      (index % 1000) * 100_000,
      '',
      '',
      channel.priority,
      1,
      '',
      channel.tag,
      '',
      '',
      '',
      '',
      '',
    ];
  });
  const abilityColumns = ['group', 'model', 'channel_id', 'enabled', 'priority', 'weight', 'tag'];
  const abilities = channels.flatMap((channel) => abilityRows(channel));
  await writeInBatches(writer, 'abilities', abilityColumns, abilities.length, (index) => {
    const ability = abilities[index];
    if (!ability) throw new Error(`no ability ${index}`);
    return [ability.group, ability.model, ability.channel_id, ability.enabled, ability.priority, ability.weight, ability.tag];
  });
  return abilities.length;
}

async function writeInBatches(writer: BulkWriter, table: string, columns: readonly string[], count: number, row: (index: number) => unknown[]): Promise<void> {
  for (let start = 0; start < count; start += batchRows) {
    const end = Math.min(count, start + batchRows);
    const values: unknown[] = [];
    for (let index = start; index < end; index += 1) values.push(...row(index));
    await writer.insert(table, columns, values, end - start);
  }
}

/**
 * Drops the log table's secondary indexes (whatever the migrations made) and returns their
 * definitions: ten million rows go in far faster without them, and they are rebuilt once at the end.
 */
async function dropLogIndexes(writer: BulkWriter): Promise<string[]> {
  const found =
    writer.dialect === 'sqlite'
      ? await writer.query<{ name: string; definition: string }>(
          `select name, sql as definition from sqlite_master where type = 'index' and tbl_name = 'logs' and sql is not null`,
        )
      : await writer.query<{ name: string; definition: string }>(
          `select indexname as name, indexdef as definition from pg_indexes where schemaname = current_schema() and tablename = 'logs' and indexname not in (select conname from pg_constraint where conrelid = 'logs'::regclass)`,
        );
  for (const index of found) await writer.exec(`drop index "${index.name}"`);
  return found.map((index) => index.definition);
}

/** The log roll-ups caught up; the cursors of the other every-minute log jobs (channel stats, quota data) set past the generated logs. */
async function catchUpLogCursors(sqlDsn: string, sqlitePath: string, now: number): Promise<void> {
  const handle = await openDatabase(sqlDsn, sqlitePath);
  try {
    const maxId = await sql<{ id: number | string | null }>`select max(id) as id from logs`.execute(handle.db);
    const upTo = Number(maxId.rows[0]?.id ?? 0);
    // The roll-ups are built as a gateway's catch-up builds them (set-based since issue 41): the log
    // page finds a model's, channel's or group's rows through them, and a user's totals are summed
    // from the daily per-user ones.
    const [byModel, byChannelGroup, byUserToken] = logHourlyRepositories(handle.db, handle.dialect);
    await rollUpLogs(byModel, upTo, now);
    await rollUpLogs(byChannelGroup, upTo, now);
    await rollUpLogs(byUserToken, upTo, now);
    await skipPast(new ChannelStatsRepository(handle.db), upTo, now);
    await skipPast(new QuotaDataRepository(handle.db, handle.db), upTo, now);
  } finally {
    await handle.close();
  }
}

/**
 * Moves a cursor past the generated logs without adding their sums. The channel stats and quota data
 * jobs add one sum row per hour and key in its own statement: for ten million logs over 30 days that
 * is millions of statements, hours of generation. A gateway
 * started on the data set then finds nothing old to aggregate, as a long-running one would; what is
 * lost is only the console's charts over the generated history (bench/logs rolls up its own logs).
 */
async function skipPast<Row>(aggregation: LogCursorAggregation<Row>, upTo: number, now: number): Promise<void> {
  const from = await aggregation.watermark();
  if (from >= upTo) return;
  const moved = await aggregation.transaction((bound) => bound.claim(from, upTo, now));
  if (!moved) throw new Error('another process moved a log cursor of the data set being generated');
}
