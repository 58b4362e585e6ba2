import type { Redis } from './redis.ts';

export type ChangeHandler = (payload: string) => void;

/**
 * Tells every instance that shared data changed (options, users, tokens, channels), so in-memory
 * caches never serve stale values across instances. With Redis it is pub/sub; without it there is
 * only this instance, and local subscribers are called directly.
 */
export interface ChangeBus {
  publish(topic: string, payload: string): Promise<void>;
  subscribe(topic: string, handler: ChangeHandler): void;
  /** Resolves once every subscription made so far is live (buildApp awaits it before serving). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const channelPrefix = 'switchboard:change:';

export function createLocalChangeBus(): ChangeBus {
  const handlers = new Map<string, ChangeHandler[]>();
  return {
    async publish(topic, payload) {
      for (const handler of handlers.get(topic) ?? []) handler(payload);
    },
    subscribe(topic, handler) {
      handlers.set(topic, [...(handlers.get(topic) ?? []), handler]);
    },
    async ready() {},
    async close() {
      handlers.clear();
    },
  };
}

export async function createRedisChangeBus(redis: Redis): Promise<ChangeBus> {
  const subscriber = redis.duplicate();
  const handlers = new Map<string, ChangeHandler[]>();
  const pending: Array<Promise<unknown>> = [];
  subscriber.on('message', (channel: string, payload: string) => {
    for (const handler of handlers.get(channel.slice(channelPrefix.length)) ?? []) handler(payload);
  });
  return {
    async publish(topic, payload) {
      // The publishing instance hears its own message too, which keeps one code path for every instance.
      await redis.publish(channelPrefix + topic, payload);
    },
    subscribe(topic, handler) {
      const existing = handlers.get(topic);
      handlers.set(topic, [...(existing ?? []), handler]);
      if (!existing) pending.push(subscriber.subscribe(channelPrefix + topic));
    },
    async ready() {
      await Promise.all(pending.splice(0));
    },
    async close() {
      handlers.clear();
      subscriber.disconnect();
    },
  };
}
