import type { Insertable, Kysely, Selectable } from 'kysely';
import { fromBoolean, sqlTimestamp } from '../../../core/db/dialect.ts';
import { insertReturningId } from '../../../core/db/insert-id.ts';
import { containsText } from '../../../core/db/like-pattern.ts';
import type { Database, ModelsTable, VendorsTable } from '../../../core/db/schema.ts';
import type { SqlDialect } from '../../../core/platform/sql-dsn.ts';

export type ModelRow = Selectable<ModelsTable>;
export type VendorRow = Selectable<VendorsTable>;

/** The columns a model row is written with (timestamps and id are the repository's). */
export interface ModelColumns {
  model_name: string;
  description: string;
  icon: string;
  tags: string;
  vendor_id: number;
  endpoints: string;
  status: number;
  sync_official: number;
  name_rule: number;
}

export interface VendorColumns {
  name: string;
  description: string;
  icon: string;
  status: number;
}

/** An enabled ability with its channel: who serves which model in which group. */
export interface ServedAbility {
  model: string;
  group: string;
  channel_name: string;
  channel_type: number;
}

export interface ModelSearch {
  keyword: string;
  /** A vendor id (digits) or part of a vendor name; '' for all. */
  vendor: string;
}

/** `models` and `vendors`, live rows only (new-api deletes both softly), and the abilities they describe. */
export class ModelCatalogueRepository {
  private readonly db: Kysely<Database>;
  private readonly dialect: SqlDialect;

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    this.db = db;
    this.dialect = dialect;
  }

  private liveModels() {
    return this.db.selectFrom('models').where('models.deleted_at', 'is', null);
  }

  private liveVendors() {
    return this.db.selectFrom('vendors').where('vendors.deleted_at', 'is', null);
  }

  private searchedModels(search: ModelSearch) {
    let query = this.liveModels();
    if (search.keyword !== '')
      query = query.where((eb) =>
        eb.or([
          containsText('models.model_name', search.keyword),
          containsText('models.description', search.keyword),
          containsText('models.tags', search.keyword),
        ]),
      );
    if (/^\d+$/.test(search.vendor)) query = query.where('models.vendor_id', '=', Number(search.vendor));
    else if (search.vendor !== '')
      query = query.where('models.vendor_id', 'in', this.liveVendors().select('vendors.id').where(containsText('vendors.name', search.vendor)));
    return query;
  }

  /** One page of live models, newest first, as new-api's SearchModels. */
  async searchModels(search: ModelSearch, offset: number, limit: number): Promise<{ rows: ModelRow[]; total: number }> {
    const rows = await this.searchedModels(search).selectAll('models').orderBy('models.id', 'desc').limit(limit).offset(offset).execute();
    const counted = await this.searchedModels(search)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirst();
    return { rows, total: Number(counted?.count ?? 0) };
  }

  /** Live models per vendor id (0: none), over the whole table. */
  async vendorModelCounts(): Promise<Map<number, number>> {
    const rows = await this.liveModels()
      .select(['models.vendor_id', (eb) => eb.fn.countAll<number | string>().as('count')])
      .groupBy('models.vendor_id')
      .execute();
    return new Map(rows.map((row) => [Number(row.vendor_id), Number(row.count)]));
  }

  allModels(): Promise<ModelRow[]> {
    return this.liveModels().selectAll('models').orderBy('models.id', 'asc').execute();
  }

  findModel(id: number): Promise<ModelRow | undefined> {
    return this.liveModels().selectAll('models').where('models.id', '=', id).executeTakeFirst();
  }

  async modelNameTaken(name: string, exceptId: number): Promise<boolean> {
    return (
      (await this.liveModels().select('models.id').where('models.model_name', '=', name).where('models.id', '<>', exceptId).executeTakeFirst()) !== undefined
    );
  }

  async insertModel(columns: ModelColumns, now: number): Promise<number> {
    // An older new-api made `model_name` unique on its own: a deleted row would block the name forever.
    await this.db.deleteFrom('models').where('model_name', '=', columns.model_name).where('deleted_at', 'is not', null).execute();
    const row: Insertable<ModelsTable> = { ...columns, created_time: now, updated_time: now };
    return insertReturningId(this.db.insertInto('models').values(row), this.dialect);
  }

  async updateModel(id: number, columns: Partial<ModelColumns>, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('models')
      .set({ ...columns, updated_time: now })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async softDeleteModel(id: number, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('models')
      .set({ deleted_at: sqlTimestamp(now, this.dialect) })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  private searchedVendors(keyword: string) {
    const query = this.liveVendors();
    return keyword === '' ? query : query.where((eb) => eb.or([containsText('vendors.name', keyword), containsText('vendors.description', keyword)]));
  }

  /** One page of live vendors, newest first. */
  async searchVendors(keyword: string, offset: number, limit: number): Promise<{ rows: VendorRow[]; total: number }> {
    const rows = await this.searchedVendors(keyword).selectAll('vendors').orderBy('vendors.id', 'desc').limit(limit).offset(offset).execute();
    const counted = await this.searchedVendors(keyword)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirst();
    return { rows, total: Number(counted?.count ?? 0) };
  }

  allVendors(): Promise<VendorRow[]> {
    return this.liveVendors().selectAll('vendors').orderBy('vendors.id', 'asc').execute();
  }

  findVendor(id: number): Promise<VendorRow | undefined> {
    return this.liveVendors().selectAll('vendors').where('vendors.id', '=', id).executeTakeFirst();
  }

  async vendorNameTaken(name: string, exceptId: number): Promise<boolean> {
    return (
      (await this.liveVendors().select('vendors.id').where('vendors.name', '=', name).where('vendors.id', '<>', exceptId).executeTakeFirst()) !== undefined
    );
  }

  async insertVendor(columns: VendorColumns, now: number): Promise<number> {
    await this.db.deleteFrom('vendors').where('name', '=', columns.name).where('deleted_at', 'is not', null).execute();
    const row: Insertable<VendorsTable> = { ...columns, created_time: now, updated_time: now };
    return insertReturningId(this.db.insertInto('vendors').values(row), this.dialect);
  }

  async updateVendor(id: number, columns: Partial<VendorColumns>, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('vendors')
      .set({ ...columns, updated_time: now })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async softDeleteVendor(id: number, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('vendors')
      .set({ deleted_at: sqlTimestamp(now, this.dialect) })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Models of a deleted vendor lose it, so no count or filter points at a vendor nobody can see. */
  async clearVendor(vendorId: number, now: number): Promise<void> {
    await this.db.updateTable('models').set({ vendor_id: 0, updated_time: now }).where('vendor_id', '=', vendorId).where('deleted_at', 'is', null).execute();
  }

  /** Every enabled ability of an existing channel, with the channel's name and type. */
  servedAbilities(): Promise<ServedAbility[]> {
    return this.db
      .selectFrom('abilities')
      .innerJoin('channels', 'channels.id', 'abilities.channel_id')
      .select(['abilities.model as model', 'abilities.group as group', 'channels.name as channel_name', 'channels.type as channel_type'])
      .where('abilities.enabled', '=', fromBoolean(true))
      .execute();
  }
}
