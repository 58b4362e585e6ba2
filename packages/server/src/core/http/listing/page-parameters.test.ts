import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeclaredRoute } from '../access.ts';
import { safeParseJson } from '../../platform/safe-json.ts';
import { createTestApp, rootUser, sessionHeaders, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

/** A concrete URL for a route pattern: parameters become 1, wildcards a harmless segment. */
const concreteUrl = (pattern: string) => pattern.replace(/:[A-Za-z_]\w*(\([^)]*\))?/g, '1').replace(/\*/g, 'x');

/**
 * Every list route, found in the route table (a list declares its paging, and the page parser refuses
 * to run for a route that does not), must refuse an absurd page with a 400 before it reaches the
 * database: `p=1e308` used to be a database error (500) on PostgreSQL and MySQL.
 */
describe.each(testDatabases())('page parameters on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let lists: DeclaredRoute[];

  const get = async (url: string, language = 'en', headers = root.headers) => {
    const response = await testApp.app.inject({ method: 'GET', url, headers: { ...headers, 'accept-language': language } });
    const json = safeParseJson(response.body);
    const body = json.ok && typeof json.value === 'object' && json.value !== null ? (json.value as { success?: unknown; message?: unknown }) : {};
    return { status: response.statusCode, success: body.success, message: body.message };
  };
  const withQuery = (route: DeclaredRoute, query: string) => `${concreteUrl(route.url)}?${query}`;
  /** The list routes' answers that are not what `expected` wants; an empty route table is a failure too. */
  const listsWhere = async (query: string, wrong: (answer: Awaited<ReturnType<typeof get>>) => boolean) => {
    expect(lists.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const route of lists) {
      const answer = await get(withQuery(route, query));
      if (wrong(answer)) failures.push(`${route.url}: ${answer.status} ${String(answer.message)}`);
    }
    return failures;
  };

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
    lists = testApp.app.switchboard.routes.filter((route) => route.paging !== undefined);
  });
  afterAll(async () => testApp.close());

  it('finds the list routes in the route table, both ways of counting pages', () => {
    expect(lists.every((route) => route.method === 'GET')).toBe(true);
    expect(new Set(lists.map((route) => route.paging))).toEqual(new Set(['from-zero', 'from-one', 'by-dialect']));
  });

  it.each([
    ['p=1e308', 'Invalid page p: it must be a whole number no greater than 10000000'],
    ['p=abc', 'Invalid page p: it must be a whole number no greater than 10000000'],
    ['p=1.5', 'Invalid page p: it must be a whole number no greater than 10000000'],
    ['p=0x10', 'Invalid page p: it must be a whole number no greater than 10000000'],
    ['p=10000001', 'Invalid page p: it must be a whole number no greater than 10000000'],
    ['p=99999999999999999999999', 'Invalid page p: it must be a whole number no greater than 10000000'],
    ['page_size=1e308', 'Invalid page size page_size: it must be a whole number'],
    ['page_size=abc', 'Invalid page size page_size: it must be a whole number'],
    ['ps=Infinity', 'Invalid page size ps: it must be a whole number'],
    ['size=99999999999999999999999', 'Invalid page size size: it must be a whole number'],
  ])('refuses %s on every list route with a 400 that says what is wrong', async (query, message) => {
    expect(await listsWhere(query, (answer) => answer.status !== 400 || answer.success !== false || answer.message !== message)).toEqual([]);
  });

  it('says it in Chinese to the console default', async () => {
    expect(await get('/api/log/?p=1e308', 'zh')).toEqual({ status: 400, success: false, message: '页码 p 无效：须为不大于 10000000 的整数' });
  });

  it.each(['p=', 'p=-1', 'p=0&page_size=0', 'p=1&page_size=1000', 'p=10000000&size=-5', 'ps=20'])(
    'reads the sane query %s as new-api does (first page, default or largest size)',
    async (query) => {
      expect(await listsWhere(query, (answer) => answer.status !== 200 || answer.success !== true)).toEqual([]);
    },
  );

  it('never answers 500 to an absurd page or page size on any GET route', async () => {
    const failed: string[] = [];
    for (const route of testApp.app.switchboard.routes.filter((candidate) => candidate.method === 'GET')) {
      // A fresh session each time, since one of these routes is the logout.
      const answer = await get(withQuery(route, 'p=1e308&page_size=1e308'), 'en', await sessionHeaders(testApp, root.id));
      if (answer.status >= 500) failed.push(`${route.url}: ${answer.status} ${String(answer.message)}`);
    }
    expect(failed).toEqual([]);
  });
});
