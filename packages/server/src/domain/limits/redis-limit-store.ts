import type { Redis } from '../../core/platform/redis.ts';
import { type Admission, concurrencyRetryMs, type LimitChange, type LimitRule, type LimitStore } from './limit-store.ts';

/**
 * Checks every rule, then counts them all, in one script: Redis runs a script alone, so two
 * instances admitting at the same moment see each other's counts and together admit what one would.
 * ARGV: now, then five per key: kind ('w' window, 'c' concurrency), limit, cost, ttl ms, lease id.
 * Answers {0, 0} when admitted, else {index of the refused rule (1-based), retry after ms}.
 */
const admitScript = `
local now = tonumber(ARGV[1])
for i = 1, #KEYS do
  local at = 1 + (i - 1) * 5
  local limit = tonumber(ARGV[at + 2])
  if ARGV[at + 1] == 'w' then
    local current = tonumber(redis.call('GET', KEYS[i]) or '0')
    if current > 0 and current + tonumber(ARGV[at + 3]) > limit then return {i, tonumber(ARGV[at + 4])} end
  else
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now)
    if redis.call('ZCARD', KEYS[i]) >= limit then return {i, ${concurrencyRetryMs}} end
  end
end
for i = 1, #KEYS do
  local at = 1 + (i - 1) * 5
  local ttl = tonumber(ARGV[at + 4])
  if ARGV[at + 1] == 'w' then
    redis.call('INCRBY', KEYS[i], ARGV[at + 3])
    if redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIRE', KEYS[i], ttl) end
  else
    redis.call('ZADD', KEYS[i], now + ttl, ARGV[at + 5])
    if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
  end
end
return {0, 0}`;

/**
 * ARGV: three per key: kind, delta, lease id. A window that already ended is left alone (INCRBY on a
 * missing key would start a count with no expiry).
 */
const settleScript = `
for i = 1, #KEYS do
  local at = (i - 1) * 3
  if ARGV[at + 1] == 'w' then
    if redis.call('EXISTS', KEYS[i]) == 1 then redis.call('INCRBY', KEYS[i], ARGV[at + 2]) end
  else
    redis.call('ZREM', KEYS[i], ARGV[at + 3])
  end
end
return 0`;

/** ARGV: two per key: count, ttl ms. Adds a count kept elsewhere to a window, starting the window when Redis has none. */
const mergeScript = `
for i = 1, #KEYS do
  redis.call('INCRBY', KEYS[i], ARGV[(i - 1) * 2 + 1])
  if redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIRE', KEYS[i], ARGV[(i - 1) * 2 + 2]) end
end
return 0`;

interface LimitCommands {
  switchboardLimitAdmit(...keysAndArguments: Array<string | number>): Promise<[number, number]>;
  switchboardLimitSettle(...keysAndArguments: Array<string | number>): Promise<number>;
  switchboardLimitMerge(...keysAndArguments: Array<string | number>): Promise<number>;
}

/** The limits shared by every instance through Redis: one round trip per admission, one per settlement. */
export class RedisLimitStore implements LimitStore {
  private readonly redis: Redis & LimitCommands;
  /** Limits count rows of one database (tokens, users): its deployment's keys are its own. */
  private readonly keyPrefix: string;

  constructor(redis: Redis, namespace = '') {
    this.keyPrefix = namespace ? `switchboard:limit:${namespace}:` : 'switchboard:limit:';
    redis.defineCommand('switchboardLimitAdmit', { lua: admitScript });
    redis.defineCommand('switchboardLimitSettle', { lua: settleScript });
    redis.defineCommand('switchboardLimitMerge', { lua: mergeScript });
    this.redis = redis as Redis & LimitCommands;
  }

  async admit(rules: readonly LimitRule[], now: number): Promise<Admission> {
    const keys = rules.map((rule) => this.keyPrefix + rule.key);
    const values: Array<string | number> = [now];
    for (const rule of rules) {
      if (rule.kind === 'window') values.push('w', rule.limit, rule.cost, Math.max(1, Math.ceil(rule.ttlMs)), '');
      else values.push('c', rule.limit, 0, rule.ttlMs, rule.leaseId);
    }
    const [refused, retryAfterMs] = await this.redis.switchboardLimitAdmit(keys.length, ...keys, ...values);
    if (Number(refused) === 0) return { admitted: true, store: this };
    return { admitted: false, refused: Number(refused) - 1, retryAfterMs: Number(retryAfterMs) };
  }

  /** Adds counts made while Redis was away to its windows, so the window's limit holds across the outage. */
  async merge(windows: ReadonlyArray<{ key: string; count: number; ttlMs: number }>): Promise<void> {
    if (windows.length === 0) return;
    const keys = windows.map((window) => this.keyPrefix + window.key);
    const values = windows.flatMap((window) => [window.count, Math.max(1, Math.ceil(window.ttlMs))]);
    await this.redis.switchboardLimitMerge(keys.length, ...keys, ...values);
  }

  async settle(changes: readonly LimitChange[]): Promise<void> {
    if (changes.length === 0) return;
    const keys = changes.map((change) => this.keyPrefix + change.key);
    const values = changes.flatMap((change) => (change.kind === 'window' ? ['w', change.delta, ''] : ['c', 0, change.leaseId]));
    await this.redis.switchboardLimitSettle(keys.length, ...keys, ...values);
  }
}
