import type { FastifyRequest } from 'fastify';
import { UserStatus } from '@switchboard/contracts';
import type { Clock } from '../../core/platform/clock.ts';
import type { AuthRepository } from './auth.repository.ts';
import type { CurrentUser } from './current-user.ts';
import type { SessionService } from './session-service.ts';

/** What finding the console user of a request needs. */
export interface ConsoleSessionLookup {
  readonly sessions: SessionService;
  readonly repository: AuthRepository;
  readonly clock: Clock;
}

/** The user whose live session cookie the request carries, if any. */
export async function sessionUser(request: FastifyRequest, lookup: ConsoleSessionLookup): Promise<CurrentUser | undefined> {
  const sessionId = lookup.sessions.sessionId(request);
  return sessionId ? lookup.repository.findUserBySession(sessionId, lookup.clock.unixSeconds()) : undefined;
}

/** Why a known console user may not make this request; each caller answers it in its own format. */
export type ConsoleCallerRefusal = 'user-header-missing' | 'user-mismatch' | 'banned';

/**
 * The classic guard of every logged-in console request: `New-Api-User` must name the caller (a
 * cross-site request cannot set it), and the caller must be enabled. One rule for the console API
 * and for the playground, which answers in the relay's format.
 */
export function refuseConsoleCaller(request: FastifyRequest, user: CurrentUser): ConsoleCallerRefusal | undefined {
  const headerId = request.headers['new-api-user'];
  if (headerId === undefined || headerId === '') return 'user-header-missing';
  if (String(headerId) !== String(user.id)) return 'user-mismatch';
  if (user.status !== UserStatus.enabled) return 'banned';
  return undefined;
}
