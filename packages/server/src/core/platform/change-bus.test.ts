import { describe, expect, it } from 'vitest';
import { createLocalChangeBus } from './change-bus.ts';

describe('the change bus of a single process', () => {
  it('resolves a publish only once every handler of the topic has finished applying it', async () => {
    const bus = createLocalChangeBus();
    const applied: string[] = [];
    bus.subscribe('tokens', async (payload) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      applied.push(`slow ${payload}`);
    });
    bus.subscribe('tokens', (payload) => void applied.push(`quick ${payload}`));
    bus.subscribe('users', (payload) => void applied.push(`user ${payload}`));
    await bus.publish('tokens', '5');
    expect(applied).toEqual(['quick 5', 'slow 5']);
  });

  it('still applies the other handlers when one fails, and resolves', async () => {
    const bus = createLocalChangeBus();
    const applied: string[] = [];
    bus.subscribe('channels', () => Promise.reject(new Error('database gone')));
    bus.subscribe('channels', () => {
      throw new Error('broken handler');
    });
    bus.subscribe('channels', (payload) => void applied.push(payload));
    await bus.publish('channels', '*');
    expect(applied).toEqual(['*']);
  });
});
