import type { TableDefinition } from '../table-definitions.ts';

/**
 * Columns of new-api (CLASSIC and CURRENT, see __fixtures__/) and one-api that
 * Switchboard does not define but knows it may find, and leaves alone.
 */
const otherProductsColumns: Readonly<Record<string, readonly string[]>> = {
  users: ['discord_id', 'stripe_customer', 'auth_version', 'lark_id'],
  tokens: ['cross_group_retry', 'auto_groups', 'models', 'subnet'],
  channels: ['config', 'system_prompt', 'allow_streaming', 'allow_non_streaming'],
  logs: ['upstream_request_id', 'elapsed_time', 'system_prompt_reset'],
  top_ups: ['payment_provider'],
  quota_data: ['use_group', 'token_id', 'channel_id', 'node_name'],
};

/** new-api CURRENT's tables of features Switchboard does not have: known, and left as they are. */
const otherProductsTables: readonly string[] = [
  'two_fas',
  'two_fa_backup_codes',
  'passkey_credentials',
  'checkins',
  'subscription_plans',
  'subscription_orders',
  'user_subscriptions',
  'subscription_pre_consume_records',
  'user_sessions',
  'auth_flows',
  'external_identity_claims',
  'custom_oauth_providers',
  'user_oauth_bindings',
  'perf_metrics',
  'system_instances',
  'system_tasks',
  'system_task_locks',
  'casbin_rule',
  'authz_roles',
];

export interface ExistingTable {
  readonly name: string;
  readonly columns: readonly string[];
}

/**
 * The tables and columns of a database that neither Switchboard nor the new-api and one-api releases
 * it knows define: a newer new-api's, or someone's own. Our own tables are `switchboard_*` and those
 * in `ours`; the migrator's bookkeeping tables are ours too.
 */
export function unknownSchema(existing: readonly ExistingTable[], ours: readonly TableDefinition[]): string[] {
  const known = new Map<string, Set<string>>();
  for (const table of ours) known.set(table.name, new Set(table.columns.map((column) => column.name)));
  for (const [table, columns] of Object.entries(otherProductsColumns)) for (const column of columns) known.get(table)?.add(column);
  const unknown: string[] = [];
  for (const table of existing) {
    if (table.name.startsWith('switchboard_') || otherProductsTables.includes(table.name)) continue;
    const columns = known.get(table.name);
    if (!columns) {
      unknown.push(table.name);
      continue;
    }
    for (const column of table.columns) if (!columns.has(column)) unknown.push(`${table.name}.${column}`);
  }
  return unknown.sort();
}

/** Which product made a database Switchboard has never opened, from the columns only one of them has. */
export function detectSource(existing: readonly ExistingTable[]): 'new-api' | 'one-api' | undefined {
  const columnsOf = (name: string) => existing.find((table) => table.name === name)?.columns;
  const users = columnsOf('users');
  const tokens = columnsOf('tokens');
  if (!users || !tokens) return undefined;
  // new-api added model limits to tokens and soft delete to users early on (2024); one-api has neither.
  if (!tokens.includes('model_limits_enabled') && !users.includes('deleted_at')) return 'one-api';
  return 'new-api';
}
