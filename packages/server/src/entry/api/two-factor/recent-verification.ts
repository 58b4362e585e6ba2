import type { FastifyRequest } from 'fastify';
import type { SessionService } from '../../../domain/auth/session-service.ts';
import { AppError } from '../../../core/http/app-error.ts';
import type { ExpiringStore } from '../../../core/platform/expiring-store.ts';
import { twoFactorMessages } from './two-factor.messages.ts';

/** How long one re-verification covers sensitive actions (new-api: five minutes). */
export const verificationLifetimeSeconds = 5 * 60;

const sessionKey = (sessionId: string) => `2fa-verified:session:${sessionId}`;

/**
 * Re-verification before sensitive actions (revealing a token key, changing the password): after
 * `POST /api/verify` with a second-factor code, the caller's session (or, for a system access token,
 * the user) counts as verified for five minutes. Users without a second factor are not asked.
 */
export class RecentVerification {
  private readonly store: ExpiringStore;
  private readonly sessions: SessionService;
  private readonly isEnabled: (userId: number) => Promise<boolean>;

  constructor(store: ExpiringStore, sessions: SessionService, isEnabled: (userId: number) => Promise<boolean>) {
    this.store = store;
    this.sessions = sessions;
    this.isEnabled = isEnabled;
  }

  private key(request: FastifyRequest, userId: number): string {
    const sessionId = this.sessions.sessionId(request);
    return sessionId ? sessionKey(sessionId) : `2fa-verified:user:${userId}`;
  }

  /** Records a passed check; answers when it runs out (unix seconds). */
  async mark(request: FastifyRequest, userId: number, nowSeconds: number): Promise<number> {
    await this.store.set(this.key(request, userId), String(userId), verificationLifetimeSeconds);
    return nowSeconds + verificationLifetimeSeconds;
  }

  /**
   * A session that a second factor started (a passkey login, or a password login finished with its
   * code or passkey) is verified from its start, as after `POST /api/verify`: new-api's consoles
   * remove a passkey without a step of their own, and do so right after signing in.
   */
  async markStartedSession(sessionId: string, userId: number): Promise<void> {
    await this.store.set(sessionKey(sessionId), String(userId), verificationLifetimeSeconds);
  }

  /** Whether the caller passed a check within the last five minutes. */
  async isVerified(request: FastifyRequest, userId: number): Promise<boolean> {
    return (await this.store.get(this.key(request, userId))) === String(userId);
  }

  /** Refuses (code `verification_required`, for the console to ask for the code) unless verified lately. */
  async assert(request: FastifyRequest, userId: number): Promise<void> {
    if (!(await this.isEnabled(userId))) return;
    if (await this.isVerified(request, userId)) return;
    throw new AppError(twoFactorMessages.verificationRequired, { status: 403, code: 'verification_required' });
  }
}
