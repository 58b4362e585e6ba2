import { openDatabase } from '../../../packages/server/src/core/platform/database.ts';
import { type CachedDataSet, copySqliteDataSet } from './dataset-cache.ts';
import { type DataSetShape, priceOptions } from './dataset-shape.ts';

/** A generated data set a Switchboard row starts from instead of an empty database. */
export interface StartingDataSet {
  /** The template database a PostgreSQL row clones. */
  readonly postgresTemplate?: string;
  /** Copies the SQLite data set to the row's own file. */
  copySqlite(target: string): void;
  /** After the bench's own seeding: channels pointed at this run's fake upstream, the data set's prices added. */
  finish(sqlDsn: string, sqlitePath: string, upstreamOrigin: string): Promise<void>;
}

export function realisticStartingDataSet(cached: CachedDataSet, shape: DataSetShape): StartingDataSet {
  return {
    ...(cached.postgresTemplate ? { postgresTemplate: cached.postgresTemplate } : {}),
    copySqlite: (target) => copySqliteDataSet(cached, target),
    finish: (sqlDsn, sqlitePath, upstreamOrigin) => finishDataSet(sqlDsn, sqlitePath, upstreamOrigin, shape),
  };
}

/**
 * The bench's seeding wrote ModelRatio and CompletionRatio with its own models; the data set's 500
 * models join them here (and GroupRatio its 20 groups), so every price is in the options as the
 * console would have saved it. Done per run because the fake upstream's port changes every run.
 */
async function finishDataSet(sqlDsn: string, sqlitePath: string, upstreamOrigin: string, shape: DataSetShape): Promise<void> {
  const handle = await openDatabase(sqlDsn, sqlitePath);
  try {
    const prices = priceOptions(shape);
    await handle.db.transaction().execute(async (transaction) => {
      await transaction.updateTable('channels').set({ base_url: upstreamOrigin }).where('name', 'like', 'channel %').execute();
      for (const [key, extra] of Object.entries(prices)) {
        const row = await transaction.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst();
        const merged = JSON.stringify({ ...(row?.value ? (JSON.parse(row.value) as Record<string, number>) : {}), ...extra });
        if (row) await transaction.updateTable('options').set({ value: merged }).where('key', '=', key).execute();
        else await transaction.insertInto('options').values({ key, value: merged }).execute();
      }
    });
  } finally {
    await handle.close();
  }
}
