import { type RawBuilder, sql } from 'kysely';

/**
 * One table's part of a quota batch as PostgreSQL and MySQL write it: a statement per chunk of rows,
 * not one per row (issue 41: thousands of distinct tokens per flush were thousands of round trips and
 * query compilations on the main thread).
 */
export interface BulkIncrement {
  readonly table: 'tokens' | 'users' | 'channels';
  /** The columns the deltas add to, in the order of each row's deltas. */
  readonly columns: readonly string[];
  /** Columns set to one value for every row of the chunk (the tokens' `accessed_time`). */
  readonly assign?: Readonly<Record<string, number>>;
}

/** A chunk of a table's rows, ids ascending and distinct, each with its deltas in `columns` order. */
export interface RowDeltas {
  readonly ids: readonly number[];
  readonly deltas: ReadonlyArray<readonly number[]>;
}

export interface BulkStatements {
  /** Locks the chunk's rows one after another by ascending id (rows deleted since are skipped). */
  lock(update: BulkIncrement, rows: RowDeltas): RawBuilder<unknown>;
  /** Adds the deltas to the rows the lock took; an id without a row matches nothing. */
  increment(update: BulkIncrement, rows: RowDeltas): RawBuilder<unknown>;
}

const assignments = (update: BulkIncrement) => Object.entries(update.assign ?? {}).map(([column, value]) => sql`${sql.id(column)} = ${value}`);

/**
 * Arrays as parameters: a chunk is at most four parameters whatever its size, and the id arrays are
 * bigint (the ids are bigint here, integer on some imported databases: PostgreSQL compares the two
 * through the primary key's index). The quota columns are bigint, so a delta's sum past 2^31 stays exact.
 *
 * The joined UPDATE takes its rows in its plan's order (a hash join follows the table's physical
 * order), so `lock` comes first: `ORDER BY id FOR UPDATE` sorts before it locks.
 */
export const postgresBulkStatements: BulkStatements = {
  lock: (update, rows) => sql`select id from ${sql.table(update.table)} where id = any(${rows.ids}::bigint[]) order by id for update`,
  increment(update, rows) {
    const deltaNames = update.columns.map((_column, index) => sql.id(`d${index}`));
    const increments = update.columns.map((column, index) => sql`${sql.id(column)} = t.${sql.id(column)} + d.${deltaNames[index]!}`);
    const arrays = update.columns.map((_column, index) => sql`${rows.deltas.map((delta) => delta[index])}::bigint[]`);
    return sql`update ${sql.table(update.table)} as t set ${sql.join([...increments, ...assignments(update)])}
      from unnest(${rows.ids}::bigint[], ${sql.join(arrays)}) as d(id, ${sql.join(deltaNames)}) where t.id = d.id`;
  },
};

/**
 * The rows as a derived table of `select ?, ?, … union all …`: the driver puts the values in the text
 * (Kysely's driver sends a plain query, no prepared statement), so the limit is the packet size, far
 * above a chunk. InnoDB locks rows as it reads them; `lock` reads the primary key in order (an IN list
 * is a set of ranges scanned ascending). MariaDB 10.11 happened to take the joined UPDATE's rows by
 * ascending id too, even with the rows given in reverse; the lock keeps that whatever the plan.
 */
export const mysqlBulkStatements: BulkStatements = {
  lock: (update, rows) => sql`select id from ${sql.table(update.table)} where id in (${sql.join([...rows.ids])}) order by id for update`,
  increment(update, rows) {
    const deltaNames = update.columns.map((_column, index) => sql.id(`d${index}`));
    const selects = rows.ids.map((id, row) =>
      row === 0
        ? sql`select ${id} as id, ${sql.join(rows.deltas[row]!.map((delta, index) => sql`${delta} as ${deltaNames[index]!}`))}`
        : sql`select ${id}, ${sql.join([...rows.deltas[row]!])}`,
    );
    const increments = update.columns.map((column, index) => sql`t.${sql.id(column)} = t.${sql.id(column)} + d.${deltaNames[index]!}`);
    const assigned = Object.entries(update.assign ?? {}).map(([column, value]) => sql`t.${sql.id(column)} = ${value}`);
    return sql`update ${sql.table(update.table)} t join (${sql.join(selects, sql` union all `)}) d on t.id = d.id
      set ${sql.join([...increments, ...assigned])}`;
  },
};
