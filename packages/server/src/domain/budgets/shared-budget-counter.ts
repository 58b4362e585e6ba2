import type { Redis } from '../../core/platform/redis.ts';

/**
 * A budget's period use and holds in Redis, shared by every instance: one hash per owner and period
 * (`used`: charges settled in the period, `pending`: worst cases of the holds in flight) and a sorted
 * set of those holds by expiry, so the holds of an instance that died go away on their own.
 */

/** The Redis hash of one owner's budget in one period (its holds are `<key>:holds`). */
export function sharedBudgetKey(owner: 'token' | 'user', id: number, periodStart: number): string {
  return `switchboard:budget:${owner}:${id}:${periodStart}`;
}

/** One owner's budget in a call: its keys, its limit and, for a key Redis lost, the use to start from. */
export interface SharedBudgetSlot {
  readonly key: string;
  readonly limit: number;
  readonly knownUse: number;
}

/**
 * Checks every slot, then holds `worst` on each, or on none: a slot is refused once its use plus the
 * holds in flight reach its limit (room ≤ 0), so the one request admitted at the edge is the most
 * that can go over. Answers 0 when held, else the 1-based index of the refusing slot.
 */
const reserveScript = `
local now = tonumber(ARGV[1])
local expiresAt = tonumber(ARGV[2])
local member = ARGV[3]
local worst = tonumber(ARGV[4])
local ttl = tonumber(ARGV[5])
local slots = (#KEYS) / 2
for i = 1, slots do
  local hash = KEYS[2 * i - 1]
  local holds = KEYS[2 * i]
  local limit = tonumber(ARGV[4 + 2 * i])
  redis.call('HSETNX', hash, 'used', ARGV[5 + 2 * i])
  local expired = redis.call('ZRANGEBYSCORE', holds, '-inf', now)
  for _, old in ipairs(expired) do
    local amount = tonumber(string.match(old, ':(%d+)$')) or 0
    redis.call('HINCRBY', hash, 'pending', -amount)
  end
  if #expired > 0 then redis.call('ZREMRANGEBYSCORE', holds, '-inf', now) end
  local used = tonumber(redis.call('HGET', hash, 'used')) or 0
  local pending = tonumber(redis.call('HGET', hash, 'pending')) or 0
  if limit - used - pending <= 0 then return i end
end
for i = 1, slots do
  local hash = KEYS[2 * i - 1]
  local holds = KEYS[2 * i]
  redis.call('ZADD', holds, expiresAt, member)
  redis.call('HINCRBY', hash, 'pending', worst)
  redis.call('EXPIRE', hash, ttl)
  redis.call('EXPIRE', holds, ttl)
end
return 0`;

/**
 * Ends a hold (member '' when there was none): gives its worst case back if it is still there and
 * adds the final charge to the period's use. Answers each slot's use after the charge.
 */
const settleScript = `
local member = ARGV[1]
local worst = tonumber(ARGV[2])
local charge = tonumber(ARGV[3])
local ttl = tonumber(ARGV[4])
local uses = {}
for i = 1, (#KEYS) / 2 do
  local hash = KEYS[2 * i - 1]
  local holds = KEYS[2 * i]
  if member ~= '' and redis.call('ZREM', holds, member) == 1 then redis.call('HINCRBY', hash, 'pending', -worst) end
  redis.call('HSETNX', hash, 'used', ARGV[4 + i])
  uses[i] = redis.call('HINCRBY', hash, 'used', charge)
  redis.call('EXPIRE', hash, ttl)
end
return uses`;

interface BudgetCommands {
  switchboardBudgetReserve(...args: Array<string | number>): Promise<number>;
  switchboardBudgetSettle(...args: Array<string | number>): Promise<number[]>;
}

export class SharedBudgetCounter {
  private readonly redis: Redis & BudgetCommands;

  constructor(redis: Redis) {
    // ioredis sends a defined command as EVALSHA (the script once, then its hash).
    redis.defineCommand('switchboardBudgetReserve', { lua: reserveScript });
    redis.defineCommand('switchboardBudgetSettle', { lua: settleScript });
    this.redis = redis as Redis & BudgetCommands;
  }

  /** Forgets a period's use and holds: a budget set again from zero starts a fresh count. */
  async forget(key: string): Promise<void> {
    await this.redis.del(key, `${key}:holds`);
  }

  /** False while the connection is down: callers count locally rather than wait for a reconnect. */
  get ready(): boolean {
    return this.redis.status === 'ready';
  }

  /** Holds `worst` on every slot or refuses: 0 when held, else the 1-based index of the refusing slot. */
  reserve(
    slots: readonly SharedBudgetSlot[],
    hold: { member: string; worst: number; nowMs: number; expiresAtMs: number; ttlSeconds: number },
  ): Promise<number> {
    const keys = slots.flatMap((slot) => [slot.key, `${slot.key}:holds`]);
    const limits = slots.flatMap((slot) => [slot.limit, slot.knownUse]);
    return this.redis.switchboardBudgetReserve(
      keys.length,
      ...keys,
      hold.nowMs,
      hold.expiresAtMs,
      `${hold.member}:${hold.worst}`,
      hold.worst,
      hold.ttlSeconds,
      ...limits,
    );
  }

  /** Ends a hold (`member` '' for a charge that had none) and adds `charge`; answers each slot's use. */
  async settle(slots: readonly SharedBudgetSlot[], end: { member: string; worst: number; charge: number; ttlSeconds: number }): Promise<number[]> {
    const keys = slots.flatMap((slot) => [slot.key, `${slot.key}:holds`]);
    const member = end.member ? `${end.member}:${end.worst}` : '';
    const uses = await this.redis.switchboardBudgetSettle(
      keys.length,
      ...keys,
      member,
      end.worst,
      end.charge,
      end.ttlSeconds,
      ...slots.map((slot) => slot.knownUse),
    );
    return uses.map(Number);
  }
}
