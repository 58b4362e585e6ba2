import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { tasks, users } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * Brings users and tasks up to new-api's tables: `users.oidc_id` (varchar(191) default '',
 * indexed, as new-api has it) and the `tasks.start_time` index. Ensuring the two tables only adds
 * what is missing, so databases migrated before this, and imported new-api ones that already have
 * both, come out the same.
 */
export function usersOidcAndTaskStartTimeMigration(dialect: SqlDialect) {
  return coreTablesMigration([users, tasks], dialect);
}
