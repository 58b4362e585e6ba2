/* eslint-disable @typescript-eslint/no-explicit-any -- the survey reads whatever schema is there */
import type { Kysely } from 'kysely';
import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { ensureTable } from '../ensure-tables.ts';
import type { TableDefinition } from '../table-definitions.ts';
import { detectSource, type ExistingTable, unknownSchema } from './known-schema.ts';
import { moveOver } from './move-over-tables.ts';

async function existingTables(db: Kysely<any>): Promise<ExistingTable[]> {
  const tables = await db.introspection.getTables();
  return tables.map((table) => ({ name: table.name, columns: table.columns.map((column) => column.name) }));
}

/**
 * Before the first migration on a database Switchboard has never opened: if it is new-api's or
 * one-api's, say so in `switchboard_move_over` (migration 0024 acts on it). Run outside the
 * migrator because 0001 adds new-api's columns to a one-api database, after which the two look alike.
 */
export async function recordOrigin(db: Kysely<any>, dialect: SqlDialect, migrationTable: string, now: number): Promise<'new-api' | 'one-api' | undefined> {
  const tables = await existingTables(db);
  if (tables.some((table) => table.name === migrationTable)) return undefined;
  const source = detectSource(tables);
  if (!source) return undefined;
  await ensureTable(db, moveOver, dialect);
  const present = await db.selectFrom(moveOver.name).select('name').where('name', '=', 'origin').executeTakeFirst();
  if (present) return source;
  try {
    await db.insertInto(moveOver.name).values({ name: 'origin', source, detected_at: now, report: '', mapped_at: 0, dismissed_at: 0 }).execute();
  } catch (error) {
    // A second instance starting at the same moment wrote it first; anything else is a real failure.
    const written = await db.selectFrom(moveOver.name).select('name').where('name', '=', 'origin').executeTakeFirst();
    if (!written) throw error;
  }
  return source;
}

/** Tables and columns nobody told us about (a newer new-api's), for the one start-up log line. */
export async function surveyUnknownSchema(db: Kysely<any>, ours: readonly TableDefinition[]): Promise<string[]> {
  return unknownSchema(await existingTables(db), ours);
}
