import type { SqlDialect } from '../../platform/sql-dsn.ts';
import type { TableDefinition } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * new-api's model catalogue (api/model-catalogue/): its `models` and `vendors` tables with their
 * columns and index names (model/model_meta.go, model/vendor_meta.go), so a moved-over new-api
 * database keeps its catalogue and ensureTable only adds what an older release lacked. The unique
 * indexes include `deleted_at` as GORM's do; since NULLs never collide, uniqueness among live rows is
 * the service's check. `endpoints` is JSON text; `deleted_at` GORM's soft delete.
 */
export const models: TableDefinition = {
  name: 'models',
  columns: [
    { name: 'id', type: 'id' },
    { name: 'model_name', type: 'varchar(128)', notNull: true },
    { name: 'description', type: 'text' },
    { name: 'icon', type: 'varchar(128)' },
    { name: 'tags', type: 'varchar(255)' },
    { name: 'vendor_id', type: 'bigint', defaultValue: 0 },
    { name: 'endpoints', type: 'text' },
    { name: 'context_length', type: 'bigint', defaultValue: 0 },
    { name: 'max_output_tokens', type: 'bigint', defaultValue: 0 },
    { name: 'knowledge_cutoff', type: 'varchar(32)', defaultValue: '' },
    { name: 'release_date', type: 'varchar(32)', defaultValue: '' },
    { name: 'parameter_count', type: 'varchar(32)', defaultValue: '' },
    { name: 'input_modalities', type: 'varchar(128)', defaultValue: '' },
    { name: 'output_modalities', type: 'varchar(128)', defaultValue: '' },
    { name: 'status', type: 'bigint', defaultValue: 1 },
    { name: 'sync_official', type: 'bigint', defaultValue: 1 },
    { name: 'created_time', type: 'bigint', defaultValue: 0 },
    { name: 'updated_time', type: 'bigint', defaultValue: 0 },
    { name: 'name_rule', type: 'bigint', defaultValue: 0 },
    { name: 'deleted_at', type: 'timestamp' },
  ],
  indexes: [
    { name: 'uk_model_name_delete_at', columns: ['model_name', 'deleted_at'], unique: true },
    { name: 'idx_models_vendor_id', columns: ['vendor_id'] },
    { name: 'idx_models_deleted_at', columns: ['deleted_at'] },
  ],
};

export const vendors: TableDefinition = {
  name: 'vendors',
  columns: [
    { name: 'id', type: 'id' },
    { name: 'name', type: 'varchar(128)', notNull: true },
    { name: 'description', type: 'text' },
    { name: 'icon', type: 'varchar(128)' },
    { name: 'status', type: 'bigint', defaultValue: 1 },
    { name: 'created_time', type: 'bigint', defaultValue: 0 },
    { name: 'updated_time', type: 'bigint', defaultValue: 0 },
    { name: 'deleted_at', type: 'timestamp' },
  ],
  indexes: [
    { name: 'uk_vendor_name_delete_at', columns: ['name', 'deleted_at'], unique: true },
    { name: 'idx_vendors_deleted_at', columns: ['deleted_at'] },
  ],
};

export function modelCatalogueMigration(dialect: SqlDialect) {
  return coreTablesMigration([models, vendors], dialect);
}
