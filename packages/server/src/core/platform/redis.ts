import type { Redis } from 'ioredis';

export type { Redis };

/** Connects and waits for the first PING, so a wrong REDIS_CONN_STRING stops start-up with one line. */
export async function connectRedis(url: string): Promise<Redis> {
  // Loaded only when Redis is configured: the client costs about 20 MB of memory.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3, enableReadyCheck: true });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Cannot connect to Redis in REDIS_CONN_STRING: ${reason}`, { cause: error });
  }
  return redis;
}
