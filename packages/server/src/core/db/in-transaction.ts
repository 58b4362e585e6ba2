import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Runs `work` in a new transaction, or in the caller's when `db` already is one. A repository bound
 * to a transaction can then offer `transaction()` as well, and units of work compose without nesting
 * (which Kysely refuses).
 */
export function inTransaction<T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
