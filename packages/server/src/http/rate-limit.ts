import { commonMessages } from '../messages/catalogue.ts';
import type { ExpiringStore } from '../platform/expiring-store.ts';
import { AppError } from './app-error.ts';

export interface FailureLimits {
  /** Failed attempts one username may collect within the window. */
  perUsername: number;
  /** Failed attempts one client address may collect within the window (several usernames). */
  perIp: number;
  windowSeconds: number;
}

/** Enough for a forgetful person, far too few for password guessing. */
export const defaultLoginLimits: FailureLimits = { perUsername: 10, perIp: 30, windowSeconds: 15 * 60 };

/**
 * Counts failed logins per client address and per username, in the shared store (Redis when
 * configured, so the count spans instances). Once either count reaches its limit, further attempts
 * are refused with 429 before the password is even checked, until the window passes.
 */
export class FailureLimiter {
  private readonly store: ExpiringStore;
  private readonly limits: FailureLimits;
  private readonly name: string;

  constructor(store: ExpiringStore, name: string, limits: FailureLimits = defaultLoginLimits) {
    this.store = store;
    this.name = name;
    this.limits = limits;
  }

  private keys(ip: string, username: string) {
    return { ip: `fail:${this.name}:ip:${ip}`, username: `fail:${this.name}:user:${username.toLowerCase()}` };
  }

  async assertAllowed(ip: string, username: string): Promise<void> {
    const keys = this.keys(ip, username);
    const [byIp, byUsername] = await Promise.all([this.store.get(keys.ip), this.store.get(keys.username)]);
    if (Number(byIp ?? 0) >= this.limits.perIp || Number(byUsername ?? 0) >= this.limits.perUsername) {
      throw new AppError(commonMessages.tooManyRequests, { status: 429 });
    }
  }

  async recordFailure(ip: string, username: string): Promise<void> {
    const keys = this.keys(ip, username);
    await Promise.all([this.store.increment(keys.ip, this.limits.windowSeconds), this.store.increment(keys.username, this.limits.windowSeconds)]);
  }

  /** A successful login clears the username's count (the address keeps its count). */
  async recordSuccess(username: string): Promise<void> {
    await this.store.delete(this.keys('', username).username);
  }
}

/**
 * A fixed window of at most `limit` actions per key (one client address sending mail, for example),
 * in the shared store; the action past the limit is refused with 429.
 */
export class WindowLimiter {
  private readonly store: ExpiringStore;
  private readonly name: string;
  private readonly limit: number;
  private readonly windowSeconds: number;

  constructor(store: ExpiringStore, name: string, limit: number, windowSeconds: number) {
    this.store = store;
    this.name = name;
    this.limit = limit;
    this.windowSeconds = windowSeconds;
  }

  async hit(key: string): Promise<void> {
    const count = await this.store.increment(`window:${this.name}:${key}`, this.windowSeconds);
    if (count > this.limit) throw new AppError(commonMessages.tooManyRequests, { status: 429 });
  }
}
