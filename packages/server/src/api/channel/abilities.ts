import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import { ChannelStatus } from '@switchboard/contracts';
import { fromBoolean } from '../../db/dialect.ts';
import type { AbilitiesTable, ChannelsTable, Database } from '../../db/schema.ts';

/** Comma-separated lists (channel models and groups): trimmed, without empties or repeats, in order. */
export function splitCommaList(text: string | null | undefined): string[] {
  if (!text) return [];
  return [...new Set(text.split(',').map((item) => item.trim()).filter((item) => item !== ''))];
}

// Seven columns per row keeps a chunk far below every engine's bound-parameter limit.
const insertChunkSize = 200;

type ChannelForAbilities = Pick<Selectable<ChannelsTable>, 'id' | 'group' | 'models' | 'status' | 'priority' | 'weight' | 'tag'>;

/** One routing row per (group, model) of the channel: what the relay's channel selection reads. */
export function abilityRowsOf(channel: ChannelForAbilities): Insertable<AbilitiesTable>[] {
  const rows: Insertable<AbilitiesTable>[] = [];
  for (const group of splitCommaList(channel.group)) {
    for (const model of splitCommaList(channel.models)) {
      rows.push({
        group,
        model,
        channel_id: channel.id,
        enabled: fromBoolean(channel.status === ChannelStatus.enabled),
        priority: Number(channel.priority ?? 0),
        weight: Math.max(0, Number(channel.weight ?? 0)),
        tag: channel.tag ?? null,
      });
    }
  }
  return rows;
}

/**
 * Rebuilds the abilities of the given channels (or of every channel) from the channels table, inside
 * the caller's transaction so the routing index never disagrees with a committed channel change.
 * Returns how many channels were rebuilt.
 */
export async function rebuildAbilitiesInTransaction(trx: Transaction<Database>, channelIds: readonly number[] | 'all'): Promise<number> {
  if (channelIds !== 'all' && channelIds.length === 0) return 0;
  let select = trx.selectFrom('channels').select(['id', 'group', 'models', 'status', 'priority', 'weight', 'tag']);
  let remove = trx.deleteFrom('abilities');
  if (channelIds !== 'all') {
    select = select.where('id', 'in', [...channelIds]);
    remove = remove.where('channel_id', 'in', [...channelIds]);
  }
  const channels = await select.execute();
  await remove.execute();
  const rows = channels.flatMap(abilityRowsOf);
  for (let start = 0; start < rows.length; start += insertChunkSize) {
    await trx.insertInto('abilities').values(rows.slice(start, start + insertChunkSize)).execute();
  }
  return channels.length;
}

/** The same in a transaction of its own (the repair action, and callers without one). */
export async function rebuildAbilities(db: Kysely<Database>, channelIds: readonly number[] | 'all'): Promise<number> {
  return db.transaction().execute((trx) => rebuildAbilitiesInTransaction(trx, channelIds));
}
