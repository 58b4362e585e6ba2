import { type Insertable, type Kysely, type Selectable, type Transaction, type Updateable, sql } from 'kysely';
import { ChannelStatus } from '@switchboard/contracts';
import { insertReturningId } from '../../db/insert-id.ts';
import type { ChannelsTable, Database } from '../../db/schema.ts';
import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { containsText } from '../listing/like-pattern.ts';

export type ChannelRow = Selectable<ChannelsTable>;
export type ChannelRowWithoutKey = Omit<ChannelRow, 'key'>;

/** Every column except the key: lists and searches never carry secrets. */
const columnsWithoutKey = [
  'id', 'type', 'open_ai_organization', 'test_model', 'status', 'name', 'weight', 'created_time', 'test_time', 'response_time', 'base_url', 'other', 'balance',
  'balance_updated_time', 'models', 'group', 'used_quota', 'model_mapping', 'status_code_mapping', 'priority', 'auto_ban', 'other_info', 'tag', 'setting',
  'param_override', 'header_override', 'remark', 'settings',
] as const;

export interface ChannelSearch {
  keyword: string;
  group: string;
  model: string;
}

export class ChannelRepository {
  private readonly db: Kysely<Database>;
  private readonly dialect: SqlDialect;

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    this.db = db;
    this.dialect = dialect;
  }

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async list(offset: number, limit: number, idSort: boolean): Promise<ChannelRowWithoutKey[]> {
    const query = this.db.selectFrom('channels').select(columnsWithoutKey);
    const ordered = idSort ? query.orderBy('id', 'desc') : query.orderBy('priority', 'desc').orderBy('id', 'desc');
    return ordered.limit(limit).offset(offset).execute();
  }

  async listByIds(ids: readonly number[], idSort: boolean): Promise<ChannelRowWithoutKey[]> {
    if (ids.length === 0) return [];
    const query = this.db.selectFrom('channels').select(columnsWithoutKey).where('id', 'in', [...ids]);
    return (idSort ? query.orderBy('id', 'desc') : query.orderBy('priority', 'desc').orderBy('id', 'desc')).execute();
  }

  /** The lightweight shape of every channel, for tag-mode paging (channel counts are in the thousands at most). */
  async listTagOutline(): Promise<Array<{ id: number; tag: string | null; priority: number }>> {
    return this.db.selectFrom('channels').select(['id', 'tag', 'priority']).execute();
  }

  async search(search: ChannelSearch, idSort: boolean): Promise<ChannelRowWithoutKey[]> {
    let query = this.db.selectFrom('channels').select(columnsWithoutKey);
    if (search.keyword) {
      const asId = /^\d+$/.test(search.keyword) ? Number(search.keyword) : -1;
      query = query.where((eb) => eb.or([eb('id', '=', asId), containsText('name', search.keyword), eb('key', '=', search.keyword)]));
    }
    if (search.model) query = query.where(containsText('models', search.model));
    if (search.group) {
      // Groups are a comma list: match whole names only (`vip` must not match `svip`).
      const wrapped = this.dialect === 'mysql' ? sql`concat(',', ${sql.ref('group')}, ',')` : sql`(',' || ${sql.ref('group')} || ',')`;
      query = query.where(sql<boolean>`${wrapped} like ${`%,${search.group},%`}`);
    }
    const ordered = idSort ? query.orderBy('id', 'desc') : query.orderBy('priority', 'desc').orderBy('id', 'desc');
    return ordered.limit(1000).execute();
  }

  async findById(id: number, executor: Kysely<Database> | Transaction<Database> = this.db): Promise<ChannelRow | undefined> {
    return executor.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async listEnabledWithKeys(): Promise<ChannelRow[]> {
    return this.db.selectFrom('channels').selectAll().where('status', '=', ChannelStatus.enabled).execute();
  }

  async insert(trx: Transaction<Database>, row: Insertable<ChannelsTable>): Promise<number> {
    return insertReturningId(trx.insertInto('channels').values(row), this.dialect);
  }

  async update(trx: Transaction<Database>, id: number, patch: Updateable<ChannelsTable>): Promise<void> {
    if (Object.keys(patch).length === 0) return;
    await trx.updateTable('channels').set(patch).where('id', '=', id).execute();
  }

  async updateMany(trx: Transaction<Database>, ids: readonly number[], patch: Updateable<ChannelsTable>): Promise<void> {
    if (ids.length === 0 || Object.keys(patch).length === 0) return;
    await trx.updateTable('channels').set(patch).where('id', 'in', [...ids]).execute();
  }

  async idsByTag(trx: Transaction<Database>, tag: string): Promise<number[]> {
    const rows = await trx.selectFrom('channels').select('id').where('tag', '=', tag).execute();
    return rows.map((row) => row.id);
  }

  async existingIds(trx: Transaction<Database>, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await trx.selectFrom('channels').select('id').where('id', 'in', [...ids]).execute();
    return rows.map((row) => row.id);
  }

  async disabledIds(trx: Transaction<Database>): Promise<number[]> {
    const rows = await trx.selectFrom('channels').select('id').where('status', 'in', [ChannelStatus.manuallyDisabled, ChannelStatus.autoDisabled]).execute();
    return rows.map((row) => row.id);
  }

  async deleteByIds(trx: Transaction<Database>, ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    await trx.deleteFrom('abilities').where('channel_id', 'in', [...ids]).execute();
    const result = await trx.deleteFrom('channels').where('id', 'in', [...ids]).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async saveBalance(id: number, balance: number, updatedAt: number): Promise<void> {
    await this.db.updateTable('channels').set({ balance, balance_updated_time: updatedAt }).where('id', '=', id).execute();
  }
}
