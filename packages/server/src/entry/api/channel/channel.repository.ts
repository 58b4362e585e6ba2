import { type Kysely, sql } from 'kysely';
import { ChannelStatus } from '@switchboard/contracts';
import { inTransaction } from '../../../core/db/in-transaction.ts';
import { fromBoolean } from '../../../core/db/dialect.ts';
import { insertReturningId } from '../../../core/db/insert-id.ts';
import { containsText } from '../../../core/db/like-pattern.ts';
import type { ChannelRow, ChannelUpdate, Database, NewChannel } from '../../../core/db/schema.ts';
import type { SqlDialect } from '../../../core/platform/sql-dsn.ts';
import { abilityRowsOf } from './abilities.ts';

export type { ChannelRow } from '../../../core/db/schema.ts';
export type ChannelRowWithoutKey = Omit<ChannelRow, 'key'>;

// Seven columns per row keeps a chunk far below every engine's bound-parameter limit.
const abilityInsertChunkSize = 200;

/** Every column except the key: lists and searches never carry secrets. */
const columnsWithoutKey = [
  'id',
  'type',
  'open_ai_organization',
  'test_model',
  'status',
  'name',
  'weight',
  'created_time',
  'test_time',
  'response_time',
  'base_url',
  'other',
  'balance',
  'balance_updated_time',
  'models',
  'group',
  'used_quota',
  'model_mapping',
  'status_code_mapping',
  'priority',
  'auto_ban',
  'other_info',
  'tag',
  'setting',
  'param_override',
  'header_override',
  'remark',
  'settings',
  'channel_info',
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

  /** Runs `work` in one transaction, given this repository bound to it (or in the caller's, if already in one). */
  transaction<T>(work: (channels: ChannelRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, (trx) => work(new ChannelRepository(trx, this.dialect)));
  }

  async list(offset: number, limit: number, idSort: boolean): Promise<ChannelRowWithoutKey[]> {
    const query = this.db.selectFrom('channels').select(columnsWithoutKey);
    const ordered = idSort ? query.orderBy('id', 'desc') : query.orderBy('priority', 'desc').orderBy('id', 'desc');
    return ordered.limit(limit).offset(offset).execute();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('channels')
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  async typeCounts(): Promise<Record<string, number>> {
    const rows = await this.db
      .selectFrom('channels')
      .select((eb) => ['type', eb.fn.countAll<number | string>().as('total')])
      .groupBy('type')
      .execute();
    return Object.fromEntries(rows.map((row) => [String(row.type), Number(row.total)]));
  }

  async enabledModels(): Promise<string[]> {
    const rows = await this.db.selectFrom('abilities').select('model').distinct().where('enabled', '=', fromBoolean(true)).orderBy('model').execute();
    return rows.map((row) => row.model);
  }

  async listByIds(ids: readonly number[], idSort: boolean): Promise<ChannelRowWithoutKey[]> {
    if (ids.length === 0) return [];
    const query = this.db
      .selectFrom('channels')
      .select(columnsWithoutKey)
      .where('id', 'in', [...ids]);
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

  async findById(id: number): Promise<ChannelRow | undefined> {
    return this.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async listEnabledWithKeys(): Promise<ChannelRow[]> {
    return this.db.selectFrom('channels').selectAll().where('status', '=', ChannelStatus.enabled).execute();
  }

  async insert(row: NewChannel): Promise<number> {
    return insertReturningId(this.db.insertInto('channels').values(row), this.dialect);
  }

  async update(id: number, patch: ChannelUpdate): Promise<void> {
    if (Object.keys(patch).length === 0) return;
    await this.db.updateTable('channels').set(patch).where('id', '=', id).execute();
  }

  async updateMany(ids: readonly number[], patch: ChannelUpdate): Promise<void> {
    if (ids.length === 0 || Object.keys(patch).length === 0) return;
    await this.db
      .updateTable('channels')
      .set(patch)
      .where('id', 'in', [...ids])
      .execute();
  }

  async idsByTag(tag: string): Promise<number[]> {
    const rows = await this.db.selectFrom('channels').select('id').where('tag', '=', tag).execute();
    return rows.map((row) => row.id);
  }

  async existingIds(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('channels')
      .select('id')
      .where('id', 'in', [...ids])
      .execute();
    return rows.map((row) => row.id);
  }

  async disabledIds(): Promise<number[]> {
    const rows = await this.db
      .selectFrom('channels')
      .select('id')
      .where('status', 'in', [ChannelStatus.manuallyDisabled, ChannelStatus.autoDisabled])
      .execute();
    return rows.map((row) => row.id);
  }

  async deleteByIds(ids: readonly number[]): Promise<number> {
    if (ids.length === 0) return 0;
    await this.db
      .deleteFrom('abilities')
      .where('channel_id', 'in', [...ids])
      .execute();
    const result = await this.db
      .deleteFrom('channels')
      .where('id', 'in', [...ids])
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async saveBalance(id: number, balance: number, updatedAt: number): Promise<void> {
    await this.db.updateTable('channels').set({ balance, balance_updated_time: updatedAt }).where('id', '=', id).execute();
  }

  /** Names of the given channels (the log page shows them beside logs kept in another database). */
  async namesOf(ids: readonly number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('channels')
      .select(['id', 'name'])
      .where('id', 'in', [...ids])
      .execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /**
   * Rebuilds the abilities (the relay's routing index) of the given channels, or of every channel,
   * from the channels table, in one transaction (the caller's, on a repository bound to one) so the
   * index never disagrees with a committed channel change. Returns how many channels were rebuilt.
   */
  async rebuildAbilities(channelIds: readonly number[] | 'all'): Promise<number> {
    if (channelIds !== 'all' && channelIds.length === 0) return 0;
    return inTransaction(this.db, async (trx) => {
      let select = trx.selectFrom('channels').select(['id', 'group', 'models', 'status', 'priority', 'weight', 'tag']);
      let remove = trx.deleteFrom('abilities');
      if (channelIds !== 'all') {
        select = select.where('id', 'in', [...channelIds]);
        remove = remove.where('channel_id', 'in', [...channelIds]);
      }
      const channels = await select.execute();
      await remove.execute();
      const rows = channels.flatMap(abilityRowsOf);
      for (let start = 0; start < rows.length; start += abilityInsertChunkSize) {
        await trx
          .insertInto('abilities')
          .values(rows.slice(start, start + abilityInsertChunkSize))
          .execute();
      }
      return channels.length;
    });
  }
}
