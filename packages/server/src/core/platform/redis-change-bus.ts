import { hostname } from 'node:os';
import { Acknowledgements } from './acknowledgements.ts';
import { changeConfirmTimeoutMs, type ChangeBus } from './change-bus.ts';
import { ChangeHandlers } from './change-handlers.ts';
import type { Logger } from './logger.ts';
import { randomAlphanumeric } from './random.ts';
import { safeParseJson } from './safe-json.ts';
import type { Redis } from './redis.ts';
import { RedisChangeMembers } from './redis-change-members.ts';

const channelPrefix = 'switchboard:change:';
const confirmationPrefix = 'switchboard:change-applied:';

/** A change on the wire: who wants confirmations (and of which of its changes), or neither for an announcement. */
interface Envelope {
  readonly sb: 1;
  readonly from?: string;
  readonly id?: number;
  readonly payload: string;
}

/** The envelope of a message; an older instance's bare payload is a change nobody waits for. */
function decode(text: string): Envelope {
  if (!text.startsWith('{"sb":1,')) return { sb: 1, payload: text };
  const parsed = safeParseJson(text);
  const envelope = parsed.ok ? (parsed.value as Partial<Envelope>) : undefined;
  // Not ours after all: the text is the payload.
  if (typeof envelope?.payload !== 'string') return { sb: 1, payload: text };
  return {
    sb: 1,
    payload: envelope.payload,
    ...(typeof envelope.from === 'string' ? { from: envelope.from } : {}),
    ...(typeof envelope.id === 'number' ? { id: envelope.id } : {}),
  };
}

/**
 * The change bus of instances sharing Redis (each worker of a machine is one). A change goes out by
 * pub/sub; every instance, the publisher too (one code path), applies it and confirms on the
 * publisher's own channel. The publisher waits for the instances present when it published (see
 * RedisChangeMembers), at most `timeoutMs`; one that joins later loads after the write anyway.
 */
export async function createRedisChangeBus(redis: Redis, logger: Logger, timeoutMs = changeConfirmTimeoutMs): Promise<ChangeBus> {
  // Named so that a warning about a silent instance says which machine and process to look at.
  const instanceId = `${hostname()}/${process.pid}/${randomAlphanumeric(6)}`;
  const confirmationChannel = confirmationPrefix + instanceId;
  const subscriber = redis.duplicate();
  const handlers = new ChangeHandlers();
  const confirmations = new Acknowledgements<string>(timeoutMs);
  const members = new RedisChangeMembers(redis, instanceId, logger);
  // Every topic, subscribed or not: an instance confirms each change it hears, so a publisher never
  // waits for one that has no handler for the topic (or a version without it).
  const listening = Promise.all([subscriber.subscribe(confirmationChannel), subscriber.psubscribe(`${channelPrefix}*`)]);
  listening.catch(() => undefined); // ready() reports a failure; until then it is no unhandled rejection
  let nextId = 1;

  subscriber.on('message', (channel: string, text: string) => {
    if (channel !== confirmationChannel) return;
    const [id, member] = text.split(' ');
    if (member) confirmations.acknowledge(Number(id), member);
  });
  subscriber.on('pmessage', (_pattern: string, channel: string, text: string) => {
    const change = decode(text);
    const applied = handlers.apply(channel.slice(channelPrefix.length), change.payload);
    if (change.from === undefined || change.id === undefined) return;
    const { from, id } = change;
    void applied
      .then(() => redis.publish(confirmationPrefix + from, `${id} ${instanceId}`))
      .catch((error: unknown) => logger.warn({ err: error }, 'a change was applied but its confirmation could not be sent'));
  });

  return {
    async publish(topic, payload) {
      const expected = await members.live();
      const id = nextId++;
      const confirmed = confirmations.expect(id, expected);
      await redis.publish(channelPrefix + topic, JSON.stringify({ sb: 1, from: instanceId, id, payload } satisfies Envelope));
      const silent = await confirmed;
      if (silent.length > 0)
        logger.warn({ topic, payload, instances: silent }, `instances did not confirm a change within ${timeoutMs} ms; answering without them`);
    },
    async announce(topic, payload) {
      await redis.publish(channelPrefix + topic, JSON.stringify({ sb: 1, payload } satisfies Envelope));
    },
    subscribe(topic, handler) {
      handlers.add(topic, handler);
    },
    async ready() {
      await listening;
      await members.join();
    },
    async close() {
      await members.leave();
      handlers.clear();
      subscriber.disconnect();
    },
  };
}
