import { describe, expect, it } from 'vitest';
import { memoryOptionStore } from '../../../domain/options/testing/memory-option-store.ts';
import { modelChain } from './model-fallbacks.ts';

describe('modelChain', () => {
  it("gives the model alone when nothing is configured for it, else its alternatives once each, the token's own first", async () => {
    const { options } = memoryOptionStore({ ModelFallbacks: JSON.stringify({ 'gpt-5': ['gpt-5-mini', 'claude-sonnet-4', 'gpt-5-mini'] }) });
    await options.initialise();
    expect(modelChain(options, 'other-model', undefined)).toEqual(['other-model']);
    expect(modelChain(options, 'gpt-5', undefined)).toEqual(['gpt-5', 'gpt-5-mini', 'claude-sonnet-4']);
    expect(modelChain(options, 'gpt-5', { 'gpt-5': ['gpt-4o'] })).toEqual(['gpt-5', 'gpt-4o']);
  });

  it('hands out a new array each time (the pipeline adds a larger-context model to it)', async () => {
    const { options } = memoryOptionStore({ ModelFallbacks: JSON.stringify({ 'gpt-5': ['gpt-5-mini'] }) });
    await options.initialise();
    const first = modelChain(options, 'plain', undefined);
    first.push('larger');
    expect(modelChain(options, 'plain', undefined)).toEqual(['plain']);
    modelChain(options, 'gpt-5', undefined).push('larger');
    expect(modelChain(options, 'gpt-5', undefined)).toEqual(['gpt-5', 'gpt-5-mini']);
  });

  it('reads ModelFallbacks again once it changes, and treats a broken map as none', async () => {
    const { options } = memoryOptionStore({ ModelFallbacks: JSON.stringify({ 'gpt-5': ['gpt-5-mini'] }) });
    await options.initialise();
    expect(modelChain(options, 'gpt-5', undefined)).toEqual(['gpt-5', 'gpt-5-mini']);
    await options.set('ModelFallbacks', JSON.stringify({ 'gpt-5': ['claude-sonnet-4'] }));
    expect(modelChain(options, 'gpt-5', undefined)).toEqual(['gpt-5', 'claude-sonnet-4']);
    await options.set('ModelFallbacks', JSON.stringify({ 'gpt-5': ['gpt-5'] }));
    expect(modelChain(options, 'gpt-5', undefined)).toEqual(['gpt-5']);
  });
});
