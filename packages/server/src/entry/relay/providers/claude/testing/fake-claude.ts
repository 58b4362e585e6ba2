import { readJsonFixture, readStreamFixture } from './fixtures.ts';
import { sendEventStream, sendJson, startFakeServer, type FakeResponse, type FakeServer, type ReceivedRequest } from './fake-server.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** Keys the fake refuses, with the documented error it answers. */
export const fakeClaudeKeys = { invalid: 'claude-invalid-key', rateLimited: 'claude-rate-limited' } as const;

/** The recorded turn that fits the request: tool use when it offers tools, 1-hour cache writes when it asks for them. */
function fixtureFor(request: ReceivedRequest): string {
  if (Array.isArray(request.body?.tools) && request.body.tools.length > 0) return 'messages-tool-use';
  if (/"ttl":"1h"/.test(request.raw.toString('utf8'))) return 'messages-cache-1h';
  return 'messages-text';
}

/**
 * Answers one Messages request from the recorded fixtures: a tool-use turn (thinking, text,
 * tool_use, cache reads and writes) when the request offers tools, a turn writing the 1-hour cache
 * when a `cache_control` asks for `"ttl": "1h"`, otherwise a plain text turn; streamed when the
 * body says so (or when `streamAlways`, for Vertex's streamRawPredict).
 */
export function answerMessages(request: ReceivedRequest, response: FakeResponse, key: string, streamAlways = false): void {
  if (key === fakeClaudeKeys.invalid) return sendJson(response, 401, readJsonFixture(fixtures, 'error-authentication.json'));
  if (key === fakeClaudeKeys.rateLimited) return sendJson(response, 429, readJsonFixture(fixtures, 'error-rate-limit.json'), { 'retry-after': '1' });
  const fixture = fixtureFor(request);
  if (request.body?.stream === true || streamAlways) return sendEventStream(response, readStreamFixture(fixtures, `${fixture}.chunks.txt`));
  sendJson(response, 200, readJsonFixture(fixtures, `${fixture}.json`));
}

/** Models that refuse temperature and top_p together (Opus 4.1, Sonnet 4.5, Haiku 4.5 and later 4.x). */
const singleSamplingModels = /^claude-(?:sonnet-4-[5-9]|haiku-4-[5-9]|opus-4-[1-9])/;

/**
 * Anthropic's own refusals of a request body: unknown model names (new-api's `-thinking` suffix is
 * not one of Anthropic's), sampling parameters thinking does not allow, both temperature and
 * top_p on models that take only one.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#feature-compatibility
 */
function refusal(body: Record<string, unknown> | undefined): { status: number; type: string; message: string } | undefined {
  const model = typeof body?.model === 'string' ? body.model : '';
  if (model.endsWith('-thinking')) return { status: 404, type: 'not_found_error', message: `model: ${model}` };
  const thinking = (body?.thinking as { type?: unknown } | undefined)?.type === 'enabled';
  if (thinking && body?.temperature !== undefined && body.temperature !== 1)
    return {
      status: 400,
      type: 'invalid_request_error',
      message: '`temperature` may only be set to 1 when thinking is enabled or in interleaved thinking mode.',
    };
  if (thinking && body?.top_k !== undefined)
    return { status: 400, type: 'invalid_request_error', message: '`top_k` is not supported when thinking is enabled.' };
  if (thinking && typeof body?.top_p === 'number' && (body.top_p < 0.95 || body.top_p > 1))
    return { status: 400, type: 'invalid_request_error', message: '`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled.' };
  if (singleSamplingModels.test(model) && body?.temperature !== undefined && body.top_p !== undefined)
    return { status: 400, type: 'invalid_request_error', message: '`temperature` and `top_p` cannot both be specified for this model. Please use only one.' };
  return undefined;
}

/** Anthropic's API on 127.0.0.1: POST /v1/messages with `x-api-key` and `anthropic-version`. */
export function startFakeClaude(): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    if (request.method !== 'POST' || request.path !== '/v1/messages')
      return sendJson(response, 404, { type: 'error', error: { type: 'not_found_error', message: `Not found: ${request.path}` } });
    if (!request.headers['anthropic-version'])
      return sendJson(response, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'anthropic-version header is required' } });
    const refused = refusal(request.body);
    if (refused) return sendJson(response, refused.status, { type: 'error', error: { type: refused.type, message: refused.message } });
    answerMessages(request, response, String(request.headers['x-api-key'] ?? ''));
  });
}
