import type { Logger } from '../../core/platform/logger.ts';
import type { Redis } from '../../core/platform/redis.ts';
import { LocalSpendCoordinator, type SpendCoordinator } from './spend-coordinator.ts';
import { idleAccountMs, sliceDivisor, sliceThreshold, type LeaseGrant, type LeaseReport, type LeaseRequest } from './spend-lease-book.ts';

/**
 * The spending guard's book in Redis, for every process of every instance (spend-lease-book.ts is
 * the same book in memory; these scripts follow its rules). An account is a hash (generation, base,
 * spent) with its holders' leases and the time each holder last spoke: a holder silent for longer
 * than `staleHolderMs` (an instance that died) has its lease counted as spent, so its room is neither
 * lost for ever nor given out twice.
 */
const staleHolderMs = 30_000;
const accountTtlSeconds = Math.ceil(idleAccountMs / 1000) * 2;

const acquireScript = `
local account, leases, seen = KEYS[1], KEYS[2], KEYS[3]
local holder = ARGV[1]
local seed, worst, expected, carried = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local generation, now, stale, ttl = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local threshold, divisor = tonumber(ARGV[10]), tonumber(ARGV[11])
if redis.call('EXISTS', account) == 0 then
  local fresh = redis.call('INCR', KEYS[4])
  redis.call('HSET', account, 'generation', fresh, 'base', seed, 'spent', 0)
  redis.call('DEL', leases, seen)
end
local current = tonumber(redis.call('HGET', account, 'generation'))
local times = redis.call('HGETALL', seen)
for i = 1, #times, 2 do
  if tonumber(times[i + 1]) < now - stale and times[i] ~= holder then
    local lease = tonumber(redis.call('HGET', leases, times[i])) or 0
    if lease > 0 then redis.call('HINCRBY', account, 'spent', lease) end
    redis.call('HDEL', leases, times[i])
    redis.call('HDEL', seen, times[i])
  end
end
if generation ~= current and carried > 0 then redis.call('HINCRBY', leases, holder, carried) end
local leased, holders, mine = 0, 0, false
local all = redis.call('HGETALL', leases)
for i = 1, #all, 2 do
  leased = leased + tonumber(all[i + 1])
  holders = holders + 1
  if all[i] == holder then mine = true end
end
if not mine then holders = holders + 1 end
if holders < 2 then holders = 2 end
local room = tonumber(redis.call('HGET', account, 'base')) - tonumber(redis.call('HGET', account, 'spent')) - leased
local granted = -1
if worst <= 0 then
  if room >= 0 then granted = 0 end
elseif room >= worst * threshold * holders then
  granted = math.max(worst, math.floor(room / (divisor * holders)))
elseif room >= worst then granted = worst
elseif expected > 0 then
  if room >= expected then granted = expected end
elseif room > 0 and leased <= 0 then granted = room
end
if granted > 0 then redis.call('HINCRBY', leases, holder, granted) end
redis.call('HSET', seen, holder, now)
redis.call('EXPIRE', account, ttl)
redis.call('EXPIRE', leases, ttl)
redis.call('EXPIRE', seen, ttl)
return {granted, current}`;

const reportScript = `
local account, leases, seen = KEYS[1], KEYS[2], KEYS[3]
local holder = ARGV[1]
local generation, spent, released, now = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
if tonumber(redis.call('HGET', account, 'generation')) ~= generation then return 0 end
if spent ~= 0 then redis.call('HINCRBY', account, 'spent', spent) end
local left = redis.call('HINCRBY', leases, holder, -(spent + released))
if left <= 0 then redis.call('HDEL', leases, holder) end
redis.call('HSET', seen, holder, now)
return 1`;

const adjustScript = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HINCRBY', KEYS[1], 'base', ARGV[1])
return 1`;

interface SpendCommands {
  switchboardSpendAcquire(...args: Array<string | number>): Promise<[number, number]>;
  switchboardSpendReport(...args: Array<string | number>): Promise<number>;
  switchboardSpendAdjust(...args: Array<string | number>): Promise<number>;
}

export class RedisSpendCoordinator implements SpendCoordinator {
  readonly outlivesProcess = true;
  private readonly redis: Redis & SpendCommands;
  private readonly holder: string;
  private readonly logger: Logger;
  /** While Redis is unreachable this process guards alone (it cannot see the others' leases then). */
  private readonly fallback: LocalSpendCoordinator;
  /** True from the first unanswered call until Redis answers again: each change of state is logged once. */
  private alone = false;
  /** The deployment's prefix (spend-namespace.ts): balances are rows of one database. */
  private readonly prefix: string;

  constructor(redis: Redis, options: { namespace: string; holder: string; logger: Logger; now?: () => number }) {
    const { namespace, holder, logger, now = Date.now } = options;
    this.prefix = `switchboard:spend:${namespace}:`;
    redis.defineCommand('switchboardSpendAcquire', { numberOfKeys: 4, lua: acquireScript });
    redis.defineCommand('switchboardSpendReport', { numberOfKeys: 3, lua: reportScript });
    redis.defineCommand('switchboardSpendAdjust', { numberOfKeys: 1, lua: adjustScript });
    this.redis = redis as Redis & SpendCommands;
    this.holder = holder;
    this.logger = logger;
    this.fallback = new LocalSpendCoordinator(now);
  }

  async acquire(key: string, request: LeaseRequest): Promise<LeaseGrant> {
    if (this.redis.status !== 'ready') {
      this.lost(undefined);
      return this.guardAlone(key, request);
    }
    try {
      const [granted, generation] = await this.redis.switchboardSpendAcquire(
        ...this.accountKeys(key),
        `${this.prefix}generation`,
        this.holder,
        Math.round(request.seed),
        request.worst,
        request.expected,
        request.carried,
        request.generation,
        Date.now(),
        staleHolderMs,
        accountTtlSeconds,
        sliceThreshold,
        sliceDivisor,
      );
      this.answered();
      return { granted: Number(granted), generation: Number(generation) };
    } catch (error) {
      this.lost(error);
      return this.guardAlone(key, request);
    }
  }

  report(key: string, report: LeaseReport): void {
    // A generation of the local fallback book means nothing to Redis, and the reverse: the script ignores it.
    if (report.generation < 0) {
      this.fallback.report(key, { ...report, generation: -report.generation });
      return;
    }
    if (this.redis.status !== 'ready') return;
    void this.redis
      .switchboardSpendReport(...this.accountKeys(key), this.holder, report.generation, report.spent, report.released, Date.now())
      .catch((error: unknown) => this.lost(error));
  }

  adjust(key: string, delta: number): void {
    this.fallback.adjust(key, delta);
    if (this.redis.status !== 'ready') return;
    void this.redis.switchboardSpendAdjust(this.accountKeys(key)[0]!, Math.round(delta)).catch((error: unknown) => this.lost(error));
  }

  private accountKeys(key: string): [string, string, string] {
    const account = this.prefix + key;
    return [account, `${account}:leases`, `${account}:seen`];
  }

  /** The local book's generations are told apart from Redis's by their sign. */
  private guardAlone(key: string, request: LeaseRequest): LeaseGrant {
    const grant = this.fallback.acquire(key, { ...request, generation: -request.generation });
    return { granted: grant.granted, generation: -grant.generation };
  }

  private lost(error: unknown): void {
    if (this.alone) return;
    this.alone = true;
    this.logger.warn({ err: error }, 'Redis unreachable: balances are guarded by this process alone until it answers again');
  }

  /** The operator who read the warning learns when the deployment shares one guard again. */
  private answered(): void {
    if (!this.alone) return;
    this.alone = false;
    this.logger.warn('Redis answers again: balances are guarded for the whole deployment again');
  }
}
