import type { Logger } from './logger.ts';
import type { Redis } from './redis.ts';

const membersKey = 'switchboard:change-bus:members';
const memberKeyPrefix = 'switchboard:change-bus:member:';
/** An instance renews its presence this often… */
export const memberHeartbeatMs = 1_000;
/** …and is taken for gone once it has not for this long (a crash, a lost connection). */
export const memberLifetimeMs = 3_000;

/**
 * The instances sharing Redis that apply changes, each present while its heartbeat key lives: a
 * publisher waits for the confirmations of these only. The set holds the names (Redis has no list
 * of keys by pattern worth calling per write); a name whose key has expired is dropped when seen.
 */
export class RedisChangeMembers {
  private readonly redis: Redis;
  private readonly id: string;
  private readonly logger: Logger;
  private heartbeat: NodeJS.Timeout | undefined;
  private failing = false;

  constructor(redis: Redis, id: string, logger: Logger) {
    this.redis = redis;
    this.id = id;
    this.logger = logger;
  }

  /** Present from now on (call once every subscription is live), renewed until `leave`. */
  async join(): Promise<void> {
    if (this.heartbeat) return;
    this.heartbeat = setInterval(() => {
      this.renew().then(
        () => (this.failing = false),
        (error: unknown) => {
          if (!this.failing) this.logger.warn({ err: error }, 'change bus heartbeat failed: other instances stop waiting for this one');
          this.failing = true;
        },
      );
    }, memberHeartbeatMs);
    this.heartbeat.unref();
    await this.renew();
  }

  /** The instances present now (this one included once it has joined). */
  async live(): Promise<string[]> {
    const names = await this.redis.smembers(membersKey);
    if (names.length === 0) return [];
    const present = await this.redis.mget(names.map((name) => memberKeyPrefix + name));
    const gone = names.filter((_, index) => present[index] === null);
    if (gone.length > 0) void this.redis.srem(membersKey, ...gone).catch(() => undefined);
    return names.filter((_, index) => present[index] !== null);
  }

  /** Absent at once (a graceful stop), so no publisher waits for this instance. */
  async leave(): Promise<void> {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    await this.redis
      .multi()
      .srem(membersKey, this.id)
      .del(memberKeyPrefix + this.id)
      .exec()
      .catch(() => undefined);
  }

  private async renew(): Promise<void> {
    await this.redis
      .multi()
      .set(memberKeyPrefix + this.id, '1', 'PX', memberLifetimeMs)
      .sadd(membersKey, this.id)
      .exec();
  }
}
