import type { Redis } from '../../core/platform/redis.ts';

const rosterKey = 'switchboard:processes';
/** Each process says it is alive this often; one silent for three beats is no longer counted. */
const beatMs = 5_000;
const aliveForMs = 3 * beatMs;

/**
 * How many gateway processes share the limits in Redis (every worker of every instance), known from
 * their heartbeats. While Redis is away each process limits its requests to its share of each limit,
 * so the deployment as a whole still allows about one limit, not one per process.
 */
export class ProcessRoster {
  private readonly redis: Redis;
  private readonly member: string;
  private readonly timer: NodeJS.Timeout;
  private known = 1;

  constructor(redis: Redis, member: string) {
    this.redis = redis;
    this.member = member;
    this.timer = setInterval(() => void this.beat(), beatMs);
    this.timer.unref();
    // The first beat as soon as the connection is up, and again whenever it comes back.
    redis.on('ready', () => void this.beat());
    void this.beat();
  }

  /** The processes last seen alive, this one included (at least 1). */
  get processes(): number {
    return this.known;
  }

  /** Says this process is alive and counts the others; kept as it was while Redis does not answer. */
  async beat(now = Date.now()): Promise<void> {
    if (this.redis.status !== 'ready') return;
    try {
      const [, , count] = (await this.redis
        .multi()
        .zadd(rosterKey, now + aliveForMs, this.member)
        .zremrangebyscore(rosterKey, '-inf', now)
        .zcard(rosterKey)
        .pexpire(rosterKey, aliveForMs * 4)
        .exec()) as Array<[Error | null, unknown]>;
      if (count && !count[0]) this.known = Math.max(1, Number(count[1]));
    } catch {
      // Redis went away between the check and the call: the last count stands.
    }
  }

  close(): void {
    clearInterval(this.timer);
    void this.redis.zrem(rosterKey, this.member).catch(() => undefined);
  }
}
