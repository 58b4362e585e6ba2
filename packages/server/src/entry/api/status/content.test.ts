import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

const routes = [
  ['/api/notice', 'Notice'],
  ['/api/about', 'About'],
  ['/api/home_page_content', 'HomePageContent'],
  ['/api/user-agreement', 'legal.user_agreement'],
  ['/api/privacy-policy', 'legal.privacy_policy'],
] as const;

describe.each(testDatabases())('public content on $dialect', (database) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp(database);
  });
  afterAll(async () => {
    await testApp.close();
  });

  it.each(routes)('%s answers an empty string before anything is saved', async (url) => {
    const response = await testApp.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: '', data: '' });
  });

  it.each(routes)('%s answers the saved %s to an anonymous visitor, unchanged', async (url, option) => {
    const value = `# ${option}\n\n<b>saved</b> https://127.0.0.1/x?a=1&b=2`;
    await testApp.context.options.set(option, value);
    const response = await testApp.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: '', data: value });
  });

  it('declares the content routes public in the route table', () => {
    const declared = testApp.app.switchboard.routes.filter((route) => routes.some(([url]) => url === route.url));
    expect(declared.map((route) => `${route.method} ${route.url} ${route.access}`).sort()).toEqual([
      'GET /api/about public',
      'GET /api/home_page_content public',
      'GET /api/notice public',
      'GET /api/privacy-policy public',
      'GET /api/user-agreement public',
    ]);
  });
});
