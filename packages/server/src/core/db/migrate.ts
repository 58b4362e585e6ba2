/* eslint-disable @typescript-eslint/no-explicit-any -- migrations run on any schema */
import type { Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import { systemClock, type Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { SqlDialect } from '../platform/sql-dsn.ts';
import { coreTablesMigration } from './migrations/0001-core-tables.ts';
import { jobStateMigration } from './migrations/0010-job-state.ts';
import { logHourlyMigration } from './migrations/0011-log-hourly.ts';
import { logTimeIndexesMigration } from './migrations/0012-log-time-indexes.ts';
import { dropSupersededLogIndexesMigration } from './migrations/0013-drop-superseded-log-indexes.ts';
import { usersOidcAndTaskStartTimeMigration } from './migrations/0014-users-oidc-and-task-start-time.ts';
import { logHourlyChannelGroupMigration } from './migrations/0015-log-hourly-channel-group.ts';
import { quotaJournalMigration } from './migrations/0016-quota-journal.ts';
import { twoFactorMigration } from './migrations/0017-two-factor.ts';
import { midjourneyTokenMigration } from './migrations/0018-midjourney-token.ts';
import { tokenRequestLimitsMigration } from './migrations/0019-token-request-limits.ts';
import { budgetsMigration } from './migrations/0021-budgets.ts';
import { prefillGroups, prefillGroupsMigration } from './migrations/0022-prefill-groups.ts';
import { logHourlyChannelLatencyMigration } from './migrations/0023-log-hourly-channel-latency.ts';
import { oneApiMappingMigration } from './migrations/0024-one-api-mapping.ts';
import { payloadLogsMigration, tokenPayloadLoggingMigration } from './migrations/0025-payload-logs.ts';
import { passkeyCredentials, passkeysMigration } from './migrations/0026-passkeys.ts';
import { modelCatalogueMigration, models, vendors } from './migrations/0027-model-catalogue.ts';
import { logHourlyChannelLatencyMsMigration } from './migrations/0028-log-hourly-channel-latency-ms.ts';
import { topUpQuotaMigration } from './migrations/0029-top-up-quota.ts';
import { tokenCacheAndFallbacksMigration } from './migrations/0030-token-cache-and-fallbacks.ts';
import { channelInfoMigration } from './migrations/0031-channel-info.ts';
import { dropRollUpGuidedLogIndexesMigration } from './migrations/0032-drop-roll-up-guided-log-indexes.ts';
import { logHourlyTypeAndGroupMigration } from './migrations/0033-log-hourly-type-and-group.ts';
import { logUserCoveringIndexMigration } from './migrations/0034-log-user-covering-index.ts';
import { logRollUpCoveringIndexesMigration } from './migrations/0035-log-roll-up-covering-indexes.ts';
import { logDailyUserMigration } from './migrations/0036-log-daily-user.ts';
import { logDailyUserModelMigration } from './migrations/0037-log-daily-user-model.ts';
import { recordOrigin, surveyUnknownSchema } from './move-over/schema-survey.ts';
import { logTables, mainTables, sessions } from './table-definitions.ts';

/**
 * Migrations only add data and schema; the exceptions drop indexes of our own that newer ones
 * replaced (0013, 0032, 0035) and one roll-up table of our own that a finer one replaced (0037),
 * never a new-api table or column. Kysely's migrator takes a database lock (advisory lock on PostgreSQL,
 * GET_LOCK on MySQL, the write lock on SQLite), so two instances starting at once run them once.
 * The log table has its own migration history because it may live in another database.
 *
 * To add a column or table: extend `table-definitions.ts`, then add a migration here that ensures the
 * changed tables (ensureTable only adds what is missing, so it is safe on every engine and on
 * imported new-api databases).
 */
function mainMigrations(dialect: SqlDialect, clock: Clock, notes: string[]): Record<string, Migration> {
  return {
    '0001-core-tables': coreTablesMigration(mainTables, dialect),
    '0002-sessions': coreTablesMigration([sessions], dialect),
    '0010-job-state': jobStateMigration(dialect),
    '0014-users-oidc-and-task-start-time': usersOidcAndTaskStartTimeMigration(dialect),
    '0016-quota-journal': quotaJournalMigration(dialect),
    '0017-two-factor': twoFactorMigration(dialect),
    '0018-midjourney-token': midjourneyTokenMigration(dialect),
    '0019-token-request-limits': tokenRequestLimitsMigration(dialect),
    '0021-budgets': budgetsMigration(dialect),
    '0022-prefill-groups': prefillGroupsMigration(dialect),
    '0024-one-api-mapping': oneApiMappingMigration(dialect, () => clock.unixSeconds(), notes),
    '0025-token-payload-logging': tokenPayloadLoggingMigration(dialect),
    '0026-passkeys': passkeysMigration(dialect),
    '0027-model-catalogue': modelCatalogueMigration(dialect),
    '0029-top-up-quota': topUpQuotaMigration(dialect),
    '0030-token-cache-and-fallbacks': tokenCacheAndFallbacksMigration(dialect),
    '0031-channel-info': channelInfoMigration(dialect),
  };
}

function logMigrations(dialect: SqlDialect): Record<string, Migration> {
  return {
    '0001-log-tables': coreTablesMigration(logTables, dialect),
    '0011-log-hourly': logHourlyMigration(dialect),
    '0012-log-time-indexes': logTimeIndexesMigration(dialect),
    '0013-drop-superseded-log-indexes': dropSupersededLogIndexesMigration(dialect),
    '0015-log-hourly-channel-group': logHourlyChannelGroupMigration(dialect),
    '0016-quota-journal': quotaJournalMigration(dialect),
    '0023-log-hourly-channel-latency': logHourlyChannelLatencyMigration(dialect),
    '0025-payload-logs': payloadLogsMigration(dialect),
    '0028-log-hourly-channel-latency-ms': logHourlyChannelLatencyMsMigration(dialect),
    '0032-drop-roll-up-guided-log-indexes': dropRollUpGuidedLogIndexesMigration(dialect),
    '0033-log-hourly-type-and-group': logHourlyTypeAndGroupMigration(dialect),
    '0034-log-user-covering-index': logUserCoveringIndexMigration(dialect),
    '0035-log-roll-up-covering-indexes': logRollUpCoveringIndexesMigration(dialect),
    '0036-log-daily-user': logDailyUserMigration(dialect),
    '0037-log-daily-user-model': logDailyUserModelMigration(dialect),
  };
}

/**
 * Whether the database has run exactly these migrations: one small read, where Kysely's migrator
 * introspects the schema several times and takes the database's migration lock, so an up-to-date
 * start would wait for any instance that is migrating it (or stuck holding the lock). A database
 * migrated by a newer build (names we do not know) still goes through the migrator, which refuses it.
 */
async function allApplied(db: Kysely<any>, migrations: Record<string, Migration>, tableName: string): Promise<boolean> {
  let applied: Set<string>;
  try {
    applied = new Set((await db.selectFrom(tableName).select('name').execute()).map((row: { name: string }) => row.name));
  } catch {
    return false; // no migration table yet
  }
  const known = Object.keys(migrations);
  return applied.size === known.length && known.every((name) => applied.has(name));
}

async function run(db: Kysely<any>, dialect: SqlDialect, migrations: Record<string, Migration>, tableName: string): Promise<void> {
  if (await allApplied(db, migrations, tableName)) return;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: tableName,
    migrationLockTableName: `${tableName}_lock`,
    // On SQLite the lock itself is the transaction (see LockingSqliteAdapter).
    disableTransactions: dialect === 'sqlite',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration ${failed} failed: ${reason}`);
  }
}

/** What start-up passes so the move-over steps can say what they did (tests may leave it out). */
export interface MigrationContext {
  readonly logger?: Logger;
  readonly clock?: Clock;
}

/**
 * Migrates the main database. On a new-api or one-api database opened for the first time, its origin
 * is recorded first (db/move-over/); tables and columns nobody defined are reported in one log line.
 */
export async function migrateMainDatabase(db: Kysely<any>, dialect: SqlDialect, context: MigrationContext = {}): Promise<void> {
  const clock = context.clock ?? systemClock;
  const migrationTable = 'switchboard_migration';
  const origin = await recordOrigin(db, dialect, migrationTable, clock.unixSeconds());
  if (origin) context.logger?.info(`opening a ${origin} database in place: migrations add tables, columns and indexes and change no existing one`);
  const notes: string[] = [];
  await run(db, dialect, mainMigrations(dialect, clock, notes), migrationTable);
  for (const note of notes) context.logger?.warn(note);
  const unknown = await surveyUnknownSchema(db, [...mainTables, ...logTables, sessions, prefillGroups, passkeyCredentials, models, vendors]);
  if (unknown.length > 0)
    context.logger?.warn(
      { unknown },
      `the database has ${unknown.length} table(s) or column(s) Switchboard does not know (a newer new-api's?); they are left as they are: ${unknown.join(', ')}`,
    );
}

export async function migrateLogDatabase(db: Kysely<any>, dialect: SqlDialect): Promise<void> {
  await run(db, dialect, logMigrations(dialect), 'switchboard_log_migration');
}
