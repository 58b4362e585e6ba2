import type { ColumnType } from 'kysely';

/*
 * Column types shared by the row types in `schema.ts` and `log-schema.ts`. Booleans are written as 0/1
 * (which all three engines accept) and read back as boolean on PostgreSQL and 0/1 elsewhere: use `toBoolean`.
 */
export type Flag = ColumnType<boolean | number, number, number>;
/** Soft-delete marker; write it with `sqlTimestamp` from `db/dialect.ts`. */
export type DeletedAt = ColumnType<Date | string | null, string | null, string | null>;

/** A column the database fills with its default when an insert leaves it out. */
export type Defaulted<T> = ColumnType<T, T | undefined, T>;
