import type { SqlDialect } from '../../platform/sql-dsn.ts';
import type { TableDefinition } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * new-api's `prefill_groups` (api/prefill-group/): named lists of models, tags or endpoints that its
 * 2025 console offers in the channel form. Same table and columns, so an imported database keeps its
 * groups; `items` is a JSON array kept as text, `deleted_at` GORM's soft delete. new-api's unique
 * index on `name` is partial (`WHERE deleted_at IS NULL`), which MySQL cannot express, so uniqueness
 * among live rows is checked by the service and the index here is a plain one.
 */
export const prefillGroups: TableDefinition = {
  name: 'prefill_groups',
  columns: [
    { name: 'id', type: 'id' },
    { name: 'name', type: 'varchar(64)', notNull: true },
    { name: 'type', type: 'varchar(32)', notNull: true },
    { name: 'items', type: 'text' },
    { name: 'description', type: 'varchar(255)', defaultValue: '' },
    { name: 'created_time', type: 'bigint', defaultValue: 0 },
    { name: 'updated_time', type: 'bigint', defaultValue: 0 },
    { name: 'deleted_at', type: 'timestamp' },
  ],
  indexes: [
    { name: 'idx_prefill_groups_name', columns: ['name'] },
    { name: 'idx_prefill_groups_type', columns: ['type'] },
    { name: 'idx_prefill_groups_deleted_at', columns: ['deleted_at'] },
  ],
};

export function prefillGroupsMigration(dialect: SqlDialect) {
  return coreTablesMigration([prefillGroups], dialect);
}
