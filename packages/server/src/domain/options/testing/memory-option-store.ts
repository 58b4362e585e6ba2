import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import { OptionStore } from '../option-store.ts';
import type { OptionRepository } from '../option.repository.ts';

/** A change bus that tells no one: the store under test is the only instance. */
export const silentBus: ChangeBus = {
  subscribe: () => undefined,
  publish: async () => undefined,
  announce: async () => undefined,
  ready: async () => undefined,
  close: async () => undefined,
};

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
  return { options: new OptionStore(repository, silentBus), rows: table };
}
