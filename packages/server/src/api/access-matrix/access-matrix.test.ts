import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role, UserStatus } from '@switchboard/contracts';
import { insertReturningId } from '../../db/insert-id.ts';
import { type Access, type DeclaredRoute, trackRouteAccess } from '../../http/access.ts';
import { commonMessages } from '../../messages/catalogue.ts';
import { hashPassword } from '../../platform/password-hasher.ts';
import { safeParseJson } from '../../platform/safe-json.ts';
import { randomAlphanumeric } from '../../platform/random.ts';
import { createTestApp, sessionHeaders, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { expectedAccess, type ExpectedLevel } from './expected-access.ts';

/**
 * The authorization matrix: the app's route table must equal the written table of expected levels
 * (`expected-access.ts`, taken from the specs) both ways, and every /api route is then called by an
 * anonymous caller, an ordinary user, an administrator and the super administrator, and must be
 * allowed exactly when its expected level says so. Expectations never come from the route's own
 * declaration, so a route declared at the wrong level fails. A route added without a declared level
 * never gets this far: the app refuses to start (last test).
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

  beforeAll(async () => {
    testApp = await createTestApp(database);
    routes = testApp.app.switchboard.routes.filter((route) => route.url.startsWith('/api/'));
    passwordHash = await hashPassword('matrix-password');
  });
  afterAll(async () => {
    await testApp.close();
  });

  /** A fresh account and session for every call, so a call that logs out or deregisters affects no other. */
  async function headersFor(role: number, status: number = UserStatus.enabled): Promise<Record<string, string>> {
    const { db, dialect } = testApp.context.database;
    const id = await insertReturningId(
      db.insertInto('users').values({ username: `m${randomAlphanumeric(10)}`, password: passwordHash, display_name: 'matrix', role, status, setting: '', created_at: 0 } as never),
      dialect,
    );
    return sessionHeaders(testApp, id);
  }

  async function call(route: DeclaredRoute, headers: Record<string, string>) {
    const hasBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
    const response = await testApp.app.inject({ method: route.method as 'GET', url: concreteUrl(route.url), headers, ...(hasBody ? { payload: {} } : {}) });
    const json = safeParseJson(response.body);
    const body = json.ok && typeof json.value === 'object' && json.value !== null ? (json.value as { message?: unknown }) : {};
    return { status: response.statusCode, message: String(body.message ?? '') };
  }

  const guardDenials: string[] = [commonMessages.notLoggedIn.zh, commonMessages.userHeaderMissing.zh, commonMessages.userMismatch.zh, commonMessages.insufficientPermission.zh, commonMessages.userBanned.zh];
  const deniedByGuard = (answer: { status: number; message: string }) => (answer.status === 401 || answer.status === 403) && guardDenials.includes(answer.message);

  it('declares exactly the routes and levels of the written table', () => {
    const declared = new Map(routes.map((route) => [routeKey(route), levelOf(route.access)]));
    const missingFromTable = [...declared.keys()].filter((key) => !(key in expectedAccess));
    const withoutRoute = Object.keys(expectedAccess).filter((key) => !declared.has(key));
    const wrongLevel = [...declared].filter(([key, level]) => key in expectedAccess && expectedAccess[key] !== level).map(([key, level]) => `${key}: declared ${level}, expected ${expectedAccess[key]}`);
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
        const wronglyDenied = level === 'anonymous' && caller === 'anonymous' ? answer.status === 403 && answer.message === commonMessages.insufficientPermission.zh : deniedByGuard(answer);
        if (wronglyDenied) mismatches.push(`${routeKey(route)} (${level}) denied: ${answer.status} ${answer.message}`);
      } else {
        const expected = caller === 'anonymous' ? { status: 401, message: commonMessages.notLoggedIn.zh } : { status: 403, message: commonMessages.insufficientPermission.zh };
        if (answer.status !== expected.status || answer.message !== expected.message) mismatches.push(`${routeKey(route)} (${level}) not denied: ${answer.status} ${answer.message}`);
      }
    });
    expect(mismatches.sort()).toEqual([]);
  });

  it('requires a matching New-Api-User and refuses banned users on every non-public route', async () => {
    const mismatches: string[] = [];
    await forEachConcurrently(routes.filter((candidate) => expectedLevel(candidate) !== 'anonymous'), async (route) => {
      const { 'new-api-user': _id, ...withoutHeader } = await headersFor(Role.root);
      const missing = await call(route, withoutHeader);
      if (missing.status !== 401 || missing.message !== commonMessages.userHeaderMissing.zh) mismatches.push(`${route.method} ${route.url} without header: ${missing.status} ${missing.message}`);
      const foreign = await call(route, { ...(await headersFor(Role.root)), 'new-api-user': '999999999' });
      if (foreign.status !== 401 || foreign.message !== commonMessages.userMismatch.zh) mismatches.push(`${route.method} ${route.url} with another id: ${foreign.status} ${foreign.message}`);
      const banned = await call(route, await headersFor(Role.root, UserStatus.disabled));
      if (banned.status !== 403 || banned.message !== commonMessages.userBanned.zh) mismatches.push(`${route.method} ${route.url} as banned: ${banned.status} ${banned.message}`);
    });
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
