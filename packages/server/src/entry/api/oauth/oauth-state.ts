import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../core/http/app-error.ts';
import type { ExpiringStore } from '../../../core/platform/expiring-store.ts';
import { oauthMessages } from './oauth.messages.ts';

const stateCookie = 'oauth_state';
const stateLifetimeSeconds = 10 * 60;

/**
 * The OAuth `state`: random, remembered in the shared store (with the inviter code to credit on
 * sign-up) and in a signed cookie of the browser that asked for it. A callback must bring a state
 * that is both stored and this browser's, and it is spent on first use.
 */
export class OAuthStates {
  private readonly store: ExpiringStore;

  constructor(store: ExpiringStore) {
    this.store = store;
  }

  async issue(reply: FastifyReply, affCode: string): Promise<string> {
    const state = randomBytes(12).toString('base64url');
    await this.store.set(`oauth-state:${state}`, affCode.slice(0, 32), stateLifetimeSeconds);
    reply.setCookie(stateCookie, state, { signed: true, httpOnly: true, sameSite: 'strict', path: '/api/oauth', maxAge: stateLifetimeSeconds });
    return state;
  }

  /** Spends the state; answers the inviter code it was issued with. */
  async consume(request: FastifyRequest, reply: FastifyReply, state: string): Promise<string> {
    const raw = request.cookies[stateCookie];
    const cookie = raw ? request.unsignCookie(raw) : undefined;
    reply.clearCookie(stateCookie, { path: '/api/oauth' });
    if (!state || !cookie?.valid || cookie.value !== state) throw new AppError(oauthMessages.stateInvalid);
    const affCode = await this.store.take(`oauth-state:${state}`);
    if (affCode === undefined) throw new AppError(oauthMessages.stateInvalid);
    return affCode;
  }
}
