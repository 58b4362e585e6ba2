import { commonMessages } from '../messages/catalogue.ts';
import type { ExpiringStore } from '../platform/expiring-store.ts';
import { AppError } from './app-error.ts';
import { SlowDown } from './slow-down.ts';

/** Attempts within the window; each is counted before the check and a success gives its own back. */
export interface FailureLimits {
  /** Attempts at one username (from any address); past it they are refused. */
  perUsername: number;
  /** Attempts from one client address (at any usernames); past it they are stepped up, not refused. */
  perIp: number;
  windowSeconds: number;
}

/** Enough for a forgetful person, far too few for password guessing. */
export const defaultLoginLimits: FailureLimits = { perUsername: 10, perIp: 30, windowSeconds: 15 * 60 };

/** What an address past its limit must do before its attempt goes ahead: pass a check, or wait. */
export type AddressStepUp = (excess: number) => Promise<void>;

/** One attempt counted before the secret is checked; a failure simply keeps it. */
export interface FailureReservation {
  /** The secret was right: forgives the username's failures and gives the address its attempt back. */
  succeeded(): Promise<void>;
  /** The attempt was no guess (a used code, say): gives both counts their attempt back. */
  release(): Promise<void>;
}

/**
 * Counts attempts per client address and per username, in the shared store (Redis when configured,
 * so the count spans instances). The attempt is counted BEFORE the secret is checked and the count
 * that comes back decides: N parallel guesses at one username make at most `perUsername` checks.
 *
 * A username past its limit is refused (429). An address past its limit is not: many people can share
 * one (a company proxy, a campus NAT), and refusing it would let one guesser lock all of them out.
 * Its attempts are stepped up instead: the caller's step-up (the login asks for the human check) or,
 * by default, a growing delay.
 */
export class FailureLimiter {
  private readonly store: ExpiringStore;
  private readonly limits: FailureLimits;
  private readonly name: string;
  private readonly slowDown: SlowDown;

  constructor(store: ExpiringStore, name: string, limits: FailureLimits = defaultLoginLimits, slowDown = new SlowDown()) {
    this.store = store;
    this.name = name;
    this.limits = limits;
    this.slowDown = slowDown;
  }

  private keys(ip: string, username: string) {
    return { ip: `fail:${this.name}:ip:${ip}`, username: `fail:${this.name}:user:${username.toLowerCase()}` };
  }

  /** Waits the delay for an attempt `excess` places past the address limit (the default step-up). */
  async pause(excess: number): Promise<void> {
    await this.slowDown.pause(excess);
  }

  /**
   * Counts one attempt of `username` from `ip`. The address goes first, so an address past its limit
   * must pass `stepUp` before its attempt can reach (and use up) any username's count.
   */
  async reserve(ip: string, username: string, stepUp: AddressStepUp = (excess) => this.pause(excess)): Promise<FailureReservation> {
    const { windowSeconds, perIp, perUsername } = this.limits;
    const keys = this.keys(ip, username);
    const byIp = await this.store.increment(keys.ip, windowSeconds);
    if (byIp > perIp) await stepUp(byIp - perIp);
    const byUsername = await this.store.increment(keys.username, windowSeconds);
    if (byUsername > perUsername) throw new AppError(commonMessages.tooManyRequests, { status: 429 });
    return {
      succeeded: async () => {
        await Promise.all([this.store.delete(keys.username), this.store.decrement(keys.ip)]);
      },
      release: async () => {
        await Promise.all([this.store.decrement(keys.username), this.store.decrement(keys.ip)]);
      },
    };
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
