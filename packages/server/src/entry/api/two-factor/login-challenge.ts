import { randomBytes } from 'node:crypto';
import type { TwoFactorChallenge } from '@switchboard/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../../core/platform/clock.ts';
import type { ExpiringStore } from '../../../core/platform/expiring-store.ts';

const lifetimeSeconds = 5 * 60;
const cookieName = 'two_factor_login';
const cookiePath = '/api/user/login';
const key = (token: string) => `2fa-login:${token}`;

/**
 * A login whose first factor passed and whose second is due: a random token naming the user, in the
 * shared store for five minutes. The answer carries it as `flow_token` (new-api's current clients send
 * it back) and a signed HttpOnly cookie carries it too, for the classic clients that post only the code.
 */
export class LoginChallenges {
  private readonly store: ExpiringStore;
  private readonly clock: Clock;

  constructor(store: ExpiringStore, clock: Clock) {
    this.store = store;
    this.clock = clock;
  }

  async issue(reply: FastifyReply, userId: number): Promise<TwoFactorChallenge> {
    const token = randomBytes(24).toString('base64url');
    await this.store.set(key(token), String(userId), lifetimeSeconds);
    reply.setCookie(cookieName, token, { signed: true, httpOnly: true, sameSite: 'strict', path: cookiePath, maxAge: lifetimeSeconds });
    return { require_2fa: true, flow_token: token, expires_at: this.clock.unixSeconds() + lifetimeSeconds };
  }

  /** The token the request continues (its body's, else its cookie's) and the user it names, if still pending. */
  async pending(request: FastifyRequest, bodyToken: string | undefined): Promise<{ token: string; userId: number } | undefined> {
    const token = bodyToken || this.cookieToken(request);
    if (!token) return undefined;
    const userId = Number(await this.store.get(key(token)));
    return Number.isInteger(userId) && userId > 0 ? { token, userId } : undefined;
  }

  /** Ends the challenge; false when a parallel request finished it first (one login per challenge). */
  async finish(reply: FastifyReply, token: string): Promise<boolean> {
    reply.clearCookie(cookieName, { path: cookiePath });
    return (await this.store.take(key(token))) !== undefined;
  }

  private cookieToken(request: FastifyRequest): string | undefined {
    const raw = request.cookies[cookieName];
    if (!raw) return undefined;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid && unsigned.value ? unsigned.value : undefined;
  }
}
