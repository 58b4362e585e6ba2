import { readJsonFixture, readStreamFixture } from '../../claude/testing/fixtures.ts';
import { sendEventStream, sendJson, startFakeServer, type FakeServer } from '../../claude/testing/fake-server.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** Keys the fake knows; any other is refused as MiniMax refuses it (HTTP 200, status 1004). */
export const fakeMinimaxKeys = { good: 'minimax-good-key', backup: 'minimax-backup-key', rateLimited: 'minimax-limited-key' } as const;
const knownKeys = new Set<string>(Object.values(fakeMinimaxKeys));

/** A prompt with this word is refused (1026); one with the other is cut midway by the output check (1027). */
export const fakeMinimaxInputRefusal = 'refused-input';
export const fakeMinimaxOutputRefusal = 'refused-output';

/**
 * MiniMax's API on 127.0.0.1: chatcompletion_v2 and embeddings with the bearer key. Like MiniMax, it
 * reports every failure with HTTP 200 and a `base_resp` status, and as JSON even when a stream was
 * asked for.
 */
export function startFakeMinimax(): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    if (request.method !== 'POST' || (request.path !== '/v1/text/chatcompletion_v2' && request.path !== '/v1/embeddings'))
      return sendJson(response, 404, { base_resp: { status_code: 404, status_msg: '404 page not found' } });
    const key = String(request.headers['authorization'] ?? '').replace(/^Bearer /, '');
    if (!knownKeys.has(key)) return sendJson(response, 200, readJsonFixture(fixtures, 'error-authentication.json'));
    if (key === fakeMinimaxKeys.rateLimited) return sendJson(response, 200, readJsonFixture(fixtures, 'error-rate-limit.json'));
    if (request.path === '/v1/embeddings') {
      if (!Array.isArray(request.body?.texts) || (request.body.type !== 'db' && request.body.type !== 'query'))
        return sendJson(response, 200, { vectors: null, base_resp: { status_code: 2013, status_msg: 'invalid params' } });
      return sendJson(response, 200, readJsonFixture(fixtures, 'embeddings.json'));
    }
    const raw = request.raw.toString('utf8');
    if (raw.includes(fakeMinimaxInputRefusal)) return sendJson(response, 200, readJsonFixture(fixtures, 'error-input-sensitive.json'));
    if (request.body?.stream !== true) return sendJson(response, 200, readJsonFixture(fixtures, 'chatcompletion-text.json'));
    const fixture = raw.includes(fakeMinimaxOutputRefusal) ? 'chatcompletion-output-sensitive.chunks.txt' : 'chatcompletion-text.chunks.txt';
    sendEventStream(response, readStreamFixture(fixtures, fixture));
  });
}
