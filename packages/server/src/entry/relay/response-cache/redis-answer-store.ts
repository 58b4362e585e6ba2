import type { Redis } from '../../../core/platform/redis.ts';
import type { AnswerStore } from './answer-store.ts';
import { decodeAnswer, encodeAnswer, type CachedAnswer } from './cached-answer.ts';

/**
 * Answers in Redis, shared by every instance of the deployment: keys under the deployment's
 * namespace (platform/deployment-namespace.ts), so two deployments sharing a Redis never serve each
 * other's answers; Redis expires each after its rule's TTL.
 */
export class RedisAnswerStore implements AnswerStore {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(redis: Redis, namespace: string) {
    this.redis = redis;
    this.prefix = `sb:${namespace}:response-cache:`;
  }

  /** Undefined for a missing answer and for one that cannot be read (a miss). */
  async get(key: string): Promise<CachedAnswer | undefined> {
    const stored = await this.redis.getBuffer(this.prefix + key);
    return stored ? decodeAnswer(stored) : undefined;
  }

  async set(key: string, answer: CachedAnswer, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.prefix + key, encodeAnswer(answer), 'EX', ttlSeconds);
  }

  /** SCAN, never KEYS: a large cache must not block Redis while it is emptied. */
  async purge(): Promise<number> {
    let cursor = '0';
    let dropped = 0;
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) dropped += await this.redis.unlink(...keys);
    } while (cursor !== '0');
    return dropped;
  }
}
