import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, UserStatus } from '@switchboard/contracts';
import { insertReturningId } from '../../../core/db/insert-id.ts';
import { type Access, type DeclaredRoute, trackRouteAccess } from '../../../core/http/access.ts';
import { commonMessages } from '../../../core/messages/catalogue.ts';
import { hashPassword } from '../../../core/platform/password-hasher.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { randomAlphanumeric } from '../../../core/platform/random.ts';
import { createTestApp, sessionHeaders, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { registerAuthentication } from '../../../domain/auth/authenticate.ts';
import { expectedAccess, type ExpectedLevel } from './expected-access.ts';
import { sendRawRequest } from './raw-request.ts';
import { allUrlVariants, representativeUrlVariants } from './url-variants.ts';

/**
 * The authorization matrix: the app's route table must equal the written table of expected levels
 * (`expected-access.ts`, taken from the specs) both ways, and every /api route is then called by an
 * anonymous caller, an ordinary user, an administrator and the super administrator, and must be
 * allowed exactly when its expected level says so. Expectations never come from the route's own
 * declaration, so a route declared at the wrong level fails. Every route is also called through
 * other spellings of its URL (encoded letters, doubled slashes, dot segments, other case) by every
 * caller below its level, who must get a refusal or a 404, never an answer. A route added without a
 * declared level never gets this far: the app refuses to start, and the guard refuses it anyway.
 */

type Caller = 'anonymous' | 'user' | 'admin' | 'root';
const callerRole: Record<Exclude<Caller, 'anonymous'>, number> = { user: Role.common, admin: Role.admin, root: Role.root };
const requiredRole: Record<Exclude<ExpectedLevel, 'anonymous'>, number> = { user: Role.common, admin: Role.admin, root: Role.root };

const routeKey = (route: DeclaredRoute) => `${route.method} ${route.url}`;
const levelOf = (access: Access): ExpectedLevel => (access === 'public' ? 'anonymous' : access);

/** The written expectation; a route missing from the table is reported by its own test, not here. */
function expectedLevel(route: DeclaredRoute): ExpectedLevel {
  return expectedAccess[routeKey(route)] ?? levelOf(route.access);
}

function expectedAllowed(level: ExpectedLevel, caller: Caller): boolean {
  if (level === 'anonymous') return true;
  if (caller === 'anonymous') return false;
  return callerRole[caller] >= requiredRole[level];
}

/** A concrete URL for a route pattern: parameters become 1, wildcards a harmless segment. */
function concreteUrl(pattern: string): string {
  return pattern.replace(/:[A-Za-z_]\w*(\([^)]*\))?/g, '1').replace(/\*/g, 'x');
}

/** The routes an outside attacker wants most: every spelling is tried on these. */
const mostDangerous = new Set([
  'GET /api/channel/:id',
  'POST /api/channel/:id/key',
  'PUT /api/option/',
  'GET /api/user/',
  'DELETE /api/log/',
  'POST /api/channel/fetch_models',
]);

/** Runs the checks a few at a time (the order of routes does not matter: every call has its own user). */
async function forEachConcurrently<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

describe.each(testDatabases())('authorization matrix on $dialect', (database) => {
  let testApp: TestApp;
  let routes: DeclaredRoute[];
  let passwordHash: string;
  let port: number;

  // With a console to serve, as in production: a path the router does not match gets the page,
  // unless it names the API, so a misread /api spelling would show up as a 200 here.
  const webDist = mkdtempSync(join(tmpdir(), 'sb-matrix-web-'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>console</title>');

  beforeAll(async () => {
    testApp = await createTestApp(database, { WEB_DIST_PATH: webDist });
    routes = testApp.app.switchboard.routes.filter((route) => route.url.startsWith('/api/'));
    passwordHash = await hashPassword('matrix-password');
    // The URL variants go over a real socket: they must reach the router unnormalised.
    await testApp.app.listen({ host: '127.0.0.1', port: 0 });
    const address = testApp.app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await testApp.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  /** A fresh account and session for every call, so a call that logs out or deregisters affects no other. */
  async function headersFor(role: number, status: number = UserStatus.enabled): Promise<Record<string, string>> {
    const { db, dialect } = testApp.context.database;
    const id = await insertReturningId(
      db
        .insertInto('users')
        .values({ username: `m${randomAlphanumeric(10)}`, password: passwordHash, display_name: 'matrix', role, status, setting: '', created_at: 0 } as never),
      dialect,
    );
    return sessionHeaders(testApp, id);
  }

  const hasBody = (route: DeclaredRoute) => route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
  const answerOf = (status: number, text: string) => {
    const json = safeParseJson(text);
    const body =
      json.ok && typeof json.value === 'object' && json.value !== null ? (json.value as { success?: unknown; message?: unknown; data?: unknown }) : {};
    return { status, message: String(body.message ?? ''), refusedWithoutData: body.success === false && body.data === undefined };
  };

  async function call(route: DeclaredRoute, headers: Record<string, string>) {
    const response = await testApp.app.inject({
      method: route.method as 'GET',
      url: concreteUrl(route.url),
      headers,
      ...(hasBody(route) ? { payload: {} } : {}),
    });
    return answerOf(response.statusCode, response.body);
  }

  /** The same call with the path exactly as written (no dot-segment or slash clean-up on the way). */
  async function callRaw(route: DeclaredRoute, headers: Record<string, string>, path: string) {
    const response = await sendRawRequest(port, route.method, path, headers, hasBody(route) ? '{}' : undefined);
    return answerOf(response.status, response.body);
  }

  const guardDenials: string[] = [
    commonMessages.notLoggedIn.zh,
    commonMessages.userHeaderMissing.zh,
    commonMessages.userMismatch.zh,
    commonMessages.insufficientPermission.zh,
    commonMessages.userBanned.zh,
  ];
  const deniedByGuard = (answer: { status: number; message: string }) =>
    (answer.status === 401 || answer.status === 403) && guardDenials.includes(answer.message);

  it('declares exactly the routes and levels of the written table', () => {
    const declared = new Map(routes.map((route) => [routeKey(route), levelOf(route.access)]));
    const missingFromTable = [...declared.keys()].filter((key) => !(key in expectedAccess));
    const withoutRoute = Object.keys(expectedAccess).filter((key) => !declared.has(key));
    const wrongLevel = [...declared]
      .filter(([key, level]) => key in expectedAccess && expectedAccess[key] !== level)
      .map(([key, level]) => `${key}: declared ${level}, expected ${expectedAccess[key]}`);
    expect({ missingFromTable, withoutRoute, wrongLevel }).toEqual({ missingFromTable: [], withoutRoute: [], wrongLevel: [] });
  });

  it.each<Caller>(['anonymous', 'user', 'admin', 'root'])('allows or denies every route for %s exactly as declared', async (caller) => {
    const mismatches: string[] = [];
    await forEachConcurrently(routes, async (route) => {
      const headers = caller === 'anonymous' ? {} : await headersFor(callerRole[caller]);
      const answer = await call(route, headers);
      const level = expectedLevel(route);
      const allowed = expectedAllowed(level, caller);
      if (allowed) {
        // A public route may still answer "not logged in" itself (it needs a session for that action).
        const wronglyDenied =
          level === 'anonymous' && caller === 'anonymous'
            ? answer.status === 403 && answer.message === commonMessages.insufficientPermission.zh
            : deniedByGuard(answer);
        if (wronglyDenied) mismatches.push(`${routeKey(route)} (${level}) denied: ${answer.status} ${answer.message}`);
      } else {
        const expected =
          caller === 'anonymous' ? { status: 401, message: commonMessages.notLoggedIn.zh } : { status: 403, message: commonMessages.insufficientPermission.zh };
        if (answer.status !== expected.status || answer.message !== expected.message)
          mismatches.push(`${routeKey(route)} (${level}) not denied: ${answer.status} ${answer.message}`);
      }
    });
    expect(mismatches.sort()).toEqual([]);
  });

  it.each<Caller>(['anonymous', 'user', 'admin', 'root'])('refuses %s every route above their level under every spelling of its URL', async (caller) => {
    const leaks: string[] = [];
    const refused = routes.filter((route) => !expectedAllowed(expectedLevel(route), caller));
    await forEachConcurrently(refused, async (route) => {
      const headers = caller === 'anonymous' ? {} : await headersFor(callerRole[caller]);
      const url = concreteUrl(route.url);
      const variants = mostDangerous.has(routeKey(route)) ? allUrlVariants(url) : representativeUrlVariants(url, routes.indexOf(route));
      for (const variant of variants) {
        const answer = await callRaw(route, headers, variant.url);
        // The static file handler refuses non-canonical paths (`//api//…`) itself, with 403 and nothing else.
        const refused = answer.status === 404 || deniedByGuard(answer) || (answer.status === 403 && answer.refusedWithoutData);
        if (!refused) leaks.push(`${route.method} ${variant.url} (${expectedLevel(route)}, ${variant.kind}): ${answer.status} ${answer.message}`);
      }
    });
    expect(leaks.sort()).toEqual([]);
  });

  it('refuses a request whose matched /api route declares no level, even where registration did not check', async () => {
    const bare = Fastify();
    const { sessions, authRepository, clock } = testApp.context;
    await registerAuthentication(bare, { secret: 'matrix-secret', sessions, repository: authRepository, clock });
    bare.get('/api/undeclared', async () => ({ success: true, data: 'secret' }));
    bare.get('/elsewhere', async () => ({ success: true, data: 'open' }));
    try {
      for (const url of ['/api/undeclared', '/%61pi/undeclared']) {
        const response = await bare.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(403);
        expect(response.body, url).not.toContain('secret');
      }
      expect((await bare.inject({ method: 'GET', url: '/elsewhere' })).statusCode).toBe(200);
    } finally {
      await bare.close();
    }
  });

  it('requires a matching New-Api-User and refuses banned users on every non-public route', async () => {
    const mismatches: string[] = [];
    await forEachConcurrently(
      routes.filter((candidate) => expectedLevel(candidate) !== 'anonymous'),
      async (route) => {
        const { 'new-api-user': _id, ...withoutHeader } = await headersFor(Role.root);
        const missing = await call(route, withoutHeader);
        if (missing.status !== 401 || missing.message !== commonMessages.userHeaderMissing.zh)
          mismatches.push(`${route.method} ${route.url} without header: ${missing.status} ${missing.message}`);
        const foreign = await call(route, { ...(await headersFor(Role.root)), 'new-api-user': '999999999' });
        if (foreign.status !== 401 || foreign.message !== commonMessages.userMismatch.zh)
          mismatches.push(`${route.method} ${route.url} with another id: ${foreign.status} ${foreign.message}`);
        const banned = await call(route, await headersFor(Role.root, UserStatus.disabled));
        if (banned.status !== 403 || banned.message !== commonMessages.userBanned.zh)
          mismatches.push(`${route.method} ${route.url} as banned: ${banned.status} ${banned.message}`);
      },
    );
    expect(mismatches.sort()).toEqual([]);
  });
});

describe('route table', () => {
  it('refuses an /api route that declares no access level', async () => {
    const app = Fastify();
    trackRouteAccess(app);
    expect(() => app.get('/api/undeclared', async () => 'hello')).toThrow('Route GET /api/undeclared declares no access level');
    await app.close();
  });
});
