import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { ensureTable } from '../ensure-tables.ts';
import { dropIndexesOf } from './0032-drop-roll-up-guided-log-indexes.ts';
import { logHourly } from './0011-log-hourly.ts';
import { logHourlyChannelGroup } from './0015-log-hourly-channel-group.ts';
import { logHourlyGroup } from './0033-log-hourly-type-and-group.ts';

/** The narrow indexes of 0011, 0015 and 0033 that the covering ones in those tables' definitions replace. */
export const narrowRollUpIndexes = {
  switchboard_log_hourly: ['idx_switchboard_log_hourly_model_name_bucket'],
  switchboard_log_hourly_channel_group: ['idx_switchboard_log_hourly_channel_group_channel_id_bucket', 'idx_switchboard_log_hourly_channel_group_group_bucket'],
  switchboard_log_hourly_group: ['idx_switchboard_log_hourly_group_group_bucket'],
} as const;

/**
 * Index-only reads of the model, channel and group roll-ups: `(model_name, bucket)`, `(channel_id,
 * bucket)`, `(channel_id, group, bucket)` and the group table's `(group, bucket)`, each with type,
 * count and quota beside the entry.
 * The busiest channel's total with the `default` group summed about 2,200 of 17,000 rows of
 * `(channel_id, bucket)` on 10 million logs, each on its own heap page of the 2.3-million-row table
 * (14,800 pages, 170 ms on PostgreSQL); with the group in the index and the sums beside it that is a
 * few index pages. The (group, bucket) index of the channel table is dropped: a group alone is read
 * from the group table (0033), and without statistics PostgreSQL chose it for channel and group and
 * filtered 1.3 million rows. The number of indexes per table stays the same, so the roll-up's writes
 * cost about what they did.
 */
export function logRollUpCoveringIndexesMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const table of [logHourly, logHourlyChannelGroup, logHourlyGroup]) {
        await ensureTable(db, table, dialect);
        await dropIndexesOf(db, dialect, table.name, narrowRollUpIndexes[table.name as keyof typeof narrowRollUpIndexes]);
      }
    },
  };
}
