import { type RawBuilder, sql } from 'kysely';

/**
 * `column LIKE '%text%'` with the user's `%` and `_` taken literally. The escape character is spelt
 * out because the engines disagree on the default (backslash on MySQL and PostgreSQL, none on SQLite).
 */
export function containsText(column: string, text: string): RawBuilder<boolean> {
  const escaped = text.replace(/[!%_]/g, (character) => `!${character}`);
  return sql<boolean>`${sql.ref(column)} like ${`%${escaped}%`} escape '!'`;
}

/** Case as typed, prefix match: `column LIKE 'text%'`. */
export function startsWithText(column: string, text: string): RawBuilder<boolean> {
  const escaped = text.replace(/[!%_]/g, (character) => `!${character}`);
  return sql<boolean>`${sql.ref(column)} like ${`${escaped}%`} escape '!'`;
}
