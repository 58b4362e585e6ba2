import type { ChangeBus } from '../../core/platform/change-bus.ts';
import { ChangeHandlers } from '../../core/platform/change-handlers.ts';
import type { Logger } from '../../core/platform/logger.ts';
import type { PrimaryLink } from './primary-link.ts';

/** Longer than the primary's own wait for the workers' confirmations (workerConfirmTimeoutMs), which ends its answer. */
const primaryAnswerTimeoutMs = 5_000;

/**
 * The change bus of a worker without Redis: a change goes to the primary, which repeats it to every
 * worker of the machine (this one too, so there is one code path) and answers once each has applied
 * it, so `publish` resolves only when no worker serves the old state any more.
 */
export function createClusterChangeBus(link: PrimaryLink, logger: Logger): ChangeBus {
  const handlers = new ChangeHandlers();
  link.onChange((message) => {
    const { id } = message;
    void handlers.apply(message.topic, message.payload).then(() => {
      if (id !== undefined) link.send({ sb: 'change-applied', id });
    });
  });
  // From now on the primary waits for this worker's confirmations; what was changed before, the
  // caches (subscribed next) load from the database anyway.
  link.send({ sb: 'change-subscriber' });
  return {
    async publish(topic, payload) {
      try {
        await link.request((id) => ({ sb: 'change', id, topic, payload }), primaryAnswerTimeoutMs);
      } catch (error) {
        // The write is done and cannot be taken back: this worker at least applies it before answering.
        logger.warn({ err: error, topic, payload }, 'the primary did not confirm a change; applied on this worker only');
        await handlers.apply(topic, payload);
      }
    },
    async announce(topic, payload) {
      link.send({ sb: 'change', topic, payload });
    },
    subscribe(topic, handler) {
      handlers.add(topic, handler);
    },
    async ready() {},
    async close() {
      handlers.clear();
    },
  };
}
