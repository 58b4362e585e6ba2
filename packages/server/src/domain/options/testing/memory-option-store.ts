import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import { OptionStore } from '../option-store.ts';
import type { OptionRepository } from '../option.repository.ts';

/**
 * An option store over a plain map, with a bus that tells no one: for tests of what is read and
 * cached from options in memory, not of storage. `rows` is the table, as the store writes it.
 */
export function memoryOptionStore(rows: Record<string, string>): { options: OptionStore; rows: Map<string, string> } {
  const table = new Map(Object.entries(rows));
  const repository = {
    readAll: async () => new Map(table),
    insertMissing: async (entries: ReadonlyArray<readonly [string, string]>) => {
      for (const [key, value] of entries) if (!table.has(key)) table.set(key, value);
    },
    upsert: async (key: string, value: string) => {
      table.set(key, value);
    },
  } as unknown as OptionRepository;
  const bus: ChangeBus = {
    subscribe: () => undefined,
    publish: async () => undefined,
    announce: async () => undefined,
    ready: async () => undefined,
    close: async () => undefined,
  };
  return { options: new OptionStore(repository, bus), rows: table };
}
