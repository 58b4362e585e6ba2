import { readJsonFixture } from '../../claude/testing/fixtures.ts';
import { sendJson, startFakeServer, type FakeServer } from '../../claude/testing/fake-server.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** Keys the fake knows; any other gets the 401 an OpenAI-style API answers. */
export const fakeMokaaiKeys = { good: 'moka-good-key', backup: 'moka-backup-key', rateLimited: 'moka-limited-key' } as const;
const knownKeys = new Set<string>(Object.values(fakeMokaaiKeys));

/**
 * MokaAI's embeddings API on 127.0.0.1: `POST /embeddings` with the bearer key and `input` as a list
 * of strings, answered in OpenAI's embeddings shape; errors in OpenAI's error shape (what new-api
 * reads from it).
 */
export function startFakeMokaai(): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    if (request.method !== 'POST' || request.path !== '/embeddings')
      return sendJson(response, 404, { error: { message: `Unknown request URL: ${request.path}`, type: 'invalid_request_error' } });
    const key = String(request.headers['authorization'] ?? '').replace(/^Bearer /, '');
    if (!knownKeys.has(key)) return sendJson(response, 401, readJsonFixture(fixtures, 'error-authentication.json'));
    if (key === fakeMokaaiKeys.rateLimited) return sendJson(response, 429, readJsonFixture(fixtures, 'error-rate-limit.json'));
    const input = request.body?.input;
    if (!Array.isArray(input) || !input.every((item) => typeof item === 'string'))
      return sendJson(response, 422, { error: { message: 'input must be a list of strings', type: 'invalid_request_error' } });
    sendJson(response, 200, readJsonFixture(fixtures, 'embeddings.json'));
  });
}
