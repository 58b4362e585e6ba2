import type { Kysely } from 'kysely';
import { fromBoolean } from '../../../core/db/dialect.ts';
import type { Database } from '../../../core/db/schema.ts';

/** What the price list reads from the routing index (abilities). */
export class PricingRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** Which groups' enabled channels serve each model, the groups sorted. */
  async servedModels(): Promise<Map<string, string[]>> {
    const rows = await this.db.selectFrom('abilities').select(['model', 'group']).distinct().where('enabled', '=', fromBoolean(true)).execute();
    const served = new Map<string, string[]>();
    for (const row of rows) served.set(row.model, [...(served.get(row.model) ?? []), row.group].sort());
    return served;
  }

  /** Every model some channel lists, enabled or not, sorted. */
  async channelModels(): Promise<string[]> {
    const rows = await this.db.selectFrom('abilities').select('model').distinct().orderBy('model').execute();
    return rows.map((row) => row.model);
  }
}
