import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Role, UserStatus } from '@switchboard/contracts';
import { isApiRoute, type Access } from '../../core/http/access.ts';
import { AppError } from '../../core/http/app-error.ts';
import { commonMessages } from '../../core/messages/catalogue.ts';
import { refuseConsoleCaller, sessionUser, type ConsoleSessionLookup } from './console-session.ts';
import type { CurrentUser } from './current-user.ts';
import { matchedRoute } from '../../core/http/matched-route.ts';

const minimumRole: Record<Exclude<Access, 'public'>, number> = { user: Role.common, admin: Role.admin, root: Role.root };

/**
 * The caller of a console request: the session cookie first, then a system access token in
 * `Authorization` (raw or with `Bearer `), as classic new-api does.
 */
async function identify(request: FastifyRequest, lookup: ConsoleSessionLookup): Promise<CurrentUser | undefined> {
  const user = await sessionUser(request, lookup);
  if (user) return user;
  const authorization = request.headers.authorization?.trim();
  if (authorization) {
    const token = authorization.replace(/^Bearer\s+/i, '');
    if (token) return lookup.repository.findUserByAccessToken(token);
  }
  return undefined;
}

const refusalMessages = {
  'user-header-missing': { message: commonMessages.userHeaderMissing, status: 401 },
  'user-mismatch': { message: commonMessages.userMismatch, status: 401 },
  banned: { message: commonMessages.userBanned, status: 403 },
} as const;

/**
 * Enforces the declared access level of the route the router matched. The decision reads only the
 * matched route (its config and pattern), never the URL text: the router decodes `%61pi` to `api`,
 * so a check on the text is bypassed by any encoding it does not repeat. A matched /api route
 * without a level is refused (registration already refuses one; this keeps it closed if one slips
 * past). Logged-in callers must also send `New-Api-User: <their id>` (the classic guard against
 * cross-site requests); a banned user is refused everywhere except public routes.
 */
export async function registerAuthentication(app: FastifyInstance, options: ConsoleSessionLookup & { readonly secret: string }): Promise<void> {
  await app.register(fastifyCookie, { secret: options.secret });
  // Callback style: a relay call (no access level, not /api) passes with two reads and no promise;
  // an async hook cost every relay request a promise and a turn of the microtask queue.
  app.addHook('preHandler', (request, _reply, done) => {
    const route = matchedRoute(request);
    const access = route.access;
    if (!access) {
      done(isApiRoute(route.url) ? new AppError(commonMessages.insufficientPermission, { status: 403 }) : undefined);
      return;
    }
    identify(request, options).then(
      (user) => done(admit(request, access, user)),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  });
}

/** The refusal of a caller on a route of level `access`, or undefined once the caller is set on the request. */
function admit(request: FastifyRequest, access: Access, user: CurrentUser | undefined): AppError | undefined {
  if (access === 'public') {
    if (user && user.status === UserStatus.enabled) request.currentUser = user;
    return undefined;
  }
  if (!user) return new AppError(commonMessages.notLoggedIn, { status: 401 });
  const refusal = refuseConsoleCaller(request, user);
  if (refusal) return new AppError(refusalMessages[refusal].message, { status: refusalMessages[refusal].status });
  if (user.role < minimumRole[access]) return new AppError(commonMessages.insufficientPermission, { status: 403 });
  request.currentUser = user;
  return undefined;
}

/** For handlers of non-public routes, where the hook guarantees a caller. */
export function requireUser(request: FastifyRequest): CurrentUser {
  if (!request.currentUser) throw new AppError(commonMessages.notLoggedIn, { status: 401 });
  return request.currentUser;
}
