import type { TableDefinition } from '../table-definitions.ts';

/**
 * Where Switchboard remembers what database it was first opened on. One row, `name` = 'origin',
 * written before the first migration runs (so the schema seen is the other product's, untouched):
 * `source` is `new-api` or `one-api`; `report` is the JSON account of the one-api mapping step
 * (migration 0024) and `mapped_at` when it ran; `dismissed_at` when the root closed the console's
 * notice about it. A database Switchboard created itself has no row.
 */
export const moveOver: TableDefinition = {
  name: 'switchboard_move_over',
  columns: [
    { name: 'name', type: 'varchar(32)', notNull: true },
    { name: 'source', type: 'varchar(16)', notNull: true },
    { name: 'detected_at', type: 'bigint', defaultValue: 0 },
    { name: 'report', type: 'text' },
    { name: 'mapped_at', type: 'bigint', defaultValue: 0 },
    { name: 'dismissed_at', type: 'bigint', defaultValue: 0 },
  ],
  primaryKey: ['name'],
  indexes: [],
};

/**
 * Every one-api channel the mapping step rewrote, with the values it had: the record that makes the
 * step idempotent (a channel listed here is never mapped again) and the way back to one-api
 * (README: "Moving from new-api or one-api").
 */
export const oneApiChannels: TableDefinition = {
  name: 'switchboard_one_api_channels',
  columns: [
    { name: 'channel_id', type: 'bigint', notNull: true },
    { name: 'one_api_type', type: 'int', notNull: true },
    { name: 'type', type: 'int', notNull: true },
    { name: 'base_url_before', type: 'text' },
    { name: 'other_before', type: 'text' },
    { name: 'status_before', type: 'int', defaultValue: 0 },
    { name: 'mapped_at', type: 'bigint', defaultValue: 0 },
  ],
  primaryKey: ['channel_id'],
  indexes: [],
};
