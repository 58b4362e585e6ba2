import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../core/platform/clock.ts';
import type { AuthRepository } from './auth.repository.ts';

export const sessionCookieName = 'session';
const sessionLifetimeSeconds = 30 * 24 * 3600;

/**
 * Console sessions: a random id in a cookie signed with SESSION_SECRET (HttpOnly, SameSite=Strict,
 * 30 days), backed by a row so every instance sharing the database and the secret accepts it, and a
 * logout anywhere ends it everywhere.
 */
export class SessionService {
  private readonly repository: AuthRepository;
  private readonly clock: Clock;

  constructor(repository: AuthRepository, clock: Clock) {
    this.repository = repository;
    this.clock = clock;
  }

  /** Starts a session and answers its id. */
  async start(reply: FastifyReply, userId: number, ip: string): Promise<string> {
    const id = randomBytes(24).toString('base64url');
    const now = this.clock.unixSeconds();
    await this.repository.insertSession({ id, userId, createdAt: now, expiresAt: now + sessionLifetimeSeconds, ip });
    reply.setCookie(sessionCookieName, id, { signed: true, httpOnly: true, sameSite: 'strict', path: '/', maxAge: sessionLifetimeSeconds });
    return id;
  }

  /** The session id from a validly signed cookie, or undefined. */
  sessionId(request: FastifyRequest): string | undefined {
    const raw = request.cookies[sessionCookieName];
    if (!raw) return undefined;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid && unsigned.value ? unsigned.value : undefined;
  }

  async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const id = this.sessionId(request);
    if (id) await this.repository.deleteSession(id);
    reply.clearCookie(sessionCookieName, { path: '/' });
  }

  async endAllForUser(userId: number): Promise<void> {
    await this.repository.deleteSessionsOfUser(userId);
  }
}
