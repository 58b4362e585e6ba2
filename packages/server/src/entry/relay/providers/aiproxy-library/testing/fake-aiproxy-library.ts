import { readJsonFixture, readStreamFixture } from '../../claude/testing/fixtures.ts';
import { sendEventStream, sendJson, startFakeServer, type FakeServer } from '../../claude/testing/fake-server.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** The knowledge base the fake knows, and a key it refuses. */
export const fakeLibraryId = '64f3a1c2e4b0a5d6c7e8f901';
export const fakeLibraryKeys = { invalid: 'aiproxy-invalid' } as const;

/** AI Proxy's `POST /api/library/ask` on 127.0.0.1 with a bearer key; an unknown library is refused with HTTP 200 and `success: false`. */
export function startFakeAiproxyLibrary(): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    const key = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!key || key === fakeLibraryKeys.invalid) return sendJson(response, 401, readJsonFixture(fixtures, 'error-unauthorized.json'));
    if (request.method !== 'POST' || request.path !== '/api/library/ask')
      return sendJson(response, 404, { success: false, errCode: 404, message: 'not found' });
    const body = request.body ?? {};
    if (body.libraryId !== fakeLibraryId) return sendJson(response, 200, readJsonFixture(fixtures, 'error-library-not-found.json'));
    if (typeof body.query !== 'string' || !body.query) return sendJson(response, 200, { success: false, errCode: 400, message: 'query is required' });
    if (body.stream === true) return sendEventStream(response, readStreamFixture(fixtures, 'ask.chunks.txt'));
    sendJson(response, 200, readJsonFixture(fixtures, 'ask.json'));
  });
}
