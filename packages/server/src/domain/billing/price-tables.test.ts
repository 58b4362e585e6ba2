import { describe, expect, it } from 'vitest';
import type { ChangeBus } from '../../core/platform/change-bus.ts';
import { OptionStore } from '../options/option-store.ts';
import type { OptionRepository } from '../options/option.repository.ts';
import { readPriceTables } from './price-tables.ts';

/** The options table as a map: these tests are about what is cached in memory, not about storage. */
function storeWith(rows: Record<string, string>): { options: OptionStore; rows: Map<string, string> } {
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

describe('the price tables read per request', () => {
  it('are built once and handed out again while no option changed', async () => {
    const { options } = storeWith({ ModelRatio: JSON.stringify({ 'model-a': 2 }) });
    await options.initialise();
    const first = readPriceTables(options);
    expect(first.modelRatio['model-a']).toBe(2);
    expect(readPriceTables(options)).toBe(first);
  });

  it('follow a write made here and a reload of changes made elsewhere', async () => {
    const { options, rows } = storeWith({ ModelRatio: JSON.stringify({ 'model-a': 2 }) });
    await options.initialise();
    const before = readPriceTables(options);
    await options.set('ModelRatio', JSON.stringify({ 'model-a': 3 }));
    const afterWrite = readPriceTables(options);
    expect(afterWrite).not.toBe(before);
    expect(afterWrite.modelRatio['model-a']).toBe(3);
    rows.set('GroupRatio', JSON.stringify({ vip: 0.5 }));
    await options.reload();
    expect(readPriceTables(options).groupRatio.vip).toBe(0.5);
    expect(readPriceTables(options).modelRatio['model-a']).toBe(3);
  });
});
