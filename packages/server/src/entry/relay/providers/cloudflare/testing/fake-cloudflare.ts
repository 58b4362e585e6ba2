import { sendEventStream, sendJson, startFakeServer, type FakeServer } from '../../claude/testing/fake-server.ts';
import { readJsonFixture, readStreamFixture } from '../../claude/testing/fixtures.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** The account the fake hosts, and the API tokens it knows by what they make it do. */
export const fakeCloudflareAccount = '023e105f4ecef8ad9ca31a8372d0c353';
export const fakeCloudflareTokens = {
  good: 'cf-token-good',
  backup: 'cf-token-backup',
  outOfCapacity: 'cf-token-busy',
  dailyAllocationUsed: 'cf-token-free-tier-spent',
} as const;

const accountPath = /^\/client\/v4\/accounts\/([^/]+)\/ai(\/.*)$/;

/**
 * Workers AI on 127.0.0.1: the account-scoped OpenAI-compatible chat and embeddings endpoints and
 * the model catalogue, behind the bearer API token. An unknown token gets 401 with code 10000, an
 * unknown account Cloudflare's 7003 routing error, all in the v4 error envelope.
 */
export function startFakeCloudflare(): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!(Object.values(fakeCloudflareTokens) as string[]).includes(token))
      return sendJson(response, 401, readJsonFixture(fixtures, 'error-authentication.json'));
    const match = accountPath.exec(request.path);
    if (!match || match[1] !== fakeCloudflareAccount) return sendJson(response, 404, readJsonFixture(fixtures, 'error-route.json'));
    if (token === fakeCloudflareTokens.outOfCapacity) return sendJson(response, 429, readJsonFixture(fixtures, 'error-out-of-capacity.json'));
    if (token === fakeCloudflareTokens.dailyAllocationUsed) return sendJson(response, 429, readJsonFixture(fixtures, 'error-daily-allocation.json'));
    const endpoint = `${request.method} ${match[2]}`;
    if (endpoint === 'GET /models/search') return sendJson(response, 200, readJsonFixture(fixtures, 'models-search.json'));
    if (endpoint === 'POST /v1/embeddings') return sendJson(response, 200, readJsonFixture(fixtures, 'embeddings.json'));
    if (endpoint === 'POST /v1/chat/completions') {
      if (request.body?.stream === true) return sendEventStream(response, readStreamFixture(fixtures, 'chat-completion.chunks.txt'));
      return sendJson(response, 200, readJsonFixture(fixtures, 'chat-completion.json'));
    }
    sendJson(response, 404, readJsonFixture(fixtures, 'error-route.json'));
  });
}
