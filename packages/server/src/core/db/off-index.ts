import { type RawBuilder, sql } from 'kysely';

/**
 * A column that no index may serve in the condition it is put in: `+column`, SQLite's documented way
 * to keep a term off the indexes (its planner keeps no statistics and takes an equality on an indexed
 * column over a range of ids), and a no-op on PostgreSQL and MySQL. For the log roll-ups' steps, which
 * read a range of a few thousand log ids and filter them by type: with `type` indexable, SQLite walked
 * `idx_logs_type_created_at` over every log of that type instead, a walk that grows with the table
 * (74 ms a step at 2.1 million logs against 0.9 ms through the ids; a minute of logs under load made
 * hundreds of steps that held the event loop for minutes).
 */
export function offIndex<Value>(column: string): RawBuilder<Value> {
  return sql<Value>`+${sql.ref(column)}`;
}

/**
 * How a read of the logs finds its rows: `ids`, through a range of log ids (every other term kept off
 * the indexes, see offIndex), or `time`, through an index that leads with the other terms.
 */
export type LogsReadThrough = 'ids' | 'time';

/** `column` in a condition of a read `through` the ids (off the indexes) or the time (as it is). */
export function columnThrough<Value>(through: LogsReadThrough, column: string): RawBuilder<Value> {
  return through === 'ids' ? offIndex<Value>(column) : sql<Value>`${sql.ref(column)}`;
}
