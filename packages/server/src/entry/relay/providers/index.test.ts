import { describe, expect, it } from 'vitest';
import { channelTypes } from '@switchboard/contracts';
import { isTaskChannelType, taskChannelType } from '../task-channel-types.ts';
import { notYetRelayed, providerForChannelType, providers } from './index.ts';

describe('provider registry', () => {
  it('maps every catalogue channel type to exactly one provider, the task relays, or lists it as not yet relayed', () => {
    for (const { type, label } of channelTypes) {
      const claimedBy = providers.filter((provider) => provider.channelTypes.includes(type));
      const listed = type in notYetRelayed;
      const taskRelayed = isTaskChannelType(type);
      expect({ type, label, relays: claimedBy.length + (listed ? 1 : 0) + (taskRelayed ? 1 : 0) }).toEqual({ type, label, relays: 1 });
    }
  });

  it('relays Midjourney Proxy (2), Midjourney Proxy Plus (5) and Suno (36) through the task routes, not a provider', () => {
    const known = new Set(channelTypes.map((info) => info.type));
    for (const type of Object.values(taskChannelType)) {
      expect(known.has(type)).toBe(true);
      expect(notYetRelayed[type]).toBeUndefined();
      expect(providerForChannelType(type)).toBeUndefined();
    }
    expect(Object.values(taskChannelType).sort((a, b) => a - b)).toEqual([2, 5, 36]);
  });

  it('lists no type that the catalogue does not know', () => {
    const known = new Set(channelTypes.map((info) => info.type));
    for (const provider of providers) for (const type of provider.channelTypes) expect(known.has(type), `provider ${provider.id} type ${type}`).toBe(true);
    for (const type of Object.keys(notYetRelayed)) expect(known.has(Number(type))).toBe(true);
  });

  it('gives each provider a unique id', () => {
    const ids = providers.map((provider) => provider.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reads an error answer it cannot parse as an error of the upstream status that keeps the channel', () => {
    for (const provider of providers) {
      const error = provider.parseError(502, '<html><body>Bad Gateway</body></html>');
      expect({ provider: provider.id, status: error.status, disablesChannel: error.disablesChannel }).toEqual({
        provider: provider.id,
        status: 502,
        disablesChannel: false,
      });
    }
  });

  it('resolves a type to its provider', () => {
    expect(providerForChannelType(1)?.id).toBe('openai');
    expect(providerForChannelType(8)?.id).toBe('custom');
    expect(providerForChannelType(43)?.id).toBe('deepseek');
    expect(providerForChannelType(36)).toBeUndefined();
  });

  it('relays the native providers: Azure, Claude, Gemini, AWS Bedrock and Vertex AI', () => {
    expect([3, 14, 24, 33, 41].map((type) => providerForChannelType(type)?.id)).toEqual(['azure', 'claude', 'gemini', 'aws', 'vertex']);
    for (const type of [3, 14, 24, 33, 41]) expect(notYetRelayed[type]).toBeUndefined();
  });
});
