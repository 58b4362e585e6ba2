import type { ChangeBus, ChangeHandler } from '../platform/change-bus.ts';
import type { PrimaryLink } from './primary-link.ts';

/**
 * The change bus of a worker without Redis: a change goes to the primary, which repeats it to every
 * worker of the machine (this one too, so there is one code path), so each process drops its stale
 * cache entries at once instead of at the next full reload.
 */
export function createClusterChangeBus(link: PrimaryLink): ChangeBus {
  const handlers = new Map<string, ChangeHandler[]>();
  link.onChange((message) => {
    for (const handler of handlers.get(message.topic) ?? []) handler(message.payload);
  });
  return {
    async publish(topic, payload) {
      link.send({ sb: 'change', topic, payload });
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
