import { describe, expect, it } from 'vitest';
import { memoryOptionStore } from '../options/testing/memory-option-store.ts';
import { readPriceTables } from './price-tables.ts';

describe('the price tables read per request', () => {
  it('are built once and handed out again while no option changed', async () => {
    const { options } = memoryOptionStore({ ModelRatio: JSON.stringify({ 'model-a': 2 }) });
    await options.initialise();
    const first = readPriceTables(options);
    expect(first.modelRatio['model-a']).toBe(2);
    expect(readPriceTables(options)).toBe(first);
  });

  it('follow a write made here and a reload of changes made elsewhere', async () => {
    const { options, rows } = memoryOptionStore({ ModelRatio: JSON.stringify({ 'model-a': 2 }) });
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
