import { readJsonFixture, readStreamFixture } from '../../claude/testing/fixtures.ts';
import { sendEventStream, sendJson, startFakeServer, type FakeServer } from '../../claude/testing/fake-server.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** The published bot the fake knows. */
export const fakeCozeBotId = '7379462189365198898';

/** Tokens the fake refuses: Coze answers them with HTTP 200 and a non-zero code. */
export const fakeCozeKeys = { invalid: 'pat_invalid', rateLimited: 'pat_rate_limited' } as const;

export interface FakeCoze extends FakeServer {
  /** How many `/v3/chat/retrieve` calls answer `in_progress` before the chat completes. */
  setPendingPolls(count: number): void;
}

/**
 * Coze's API on 127.0.0.1: POST /v3/chat (streamed, or started for polling), GET /v3/chat/retrieve
 * and /v3/chat/message/list, with a personal access token as the bearer key. Like Coze, a refused
 * call is an HTTP 200 with `{code, msg}`; a chat question mentioning "fail" fails in the stream.
 */
export async function startFakeCoze(): Promise<FakeCoze> {
  let pendingPolls = 0;
  let pendingLeft = 0;
  const server = await startFakeServer((request, response) => {
    const key = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!key || key === fakeCozeKeys.invalid) return sendJson(response, 200, readJsonFixture(fixtures, 'error-auth.json'));
    if (key === fakeCozeKeys.rateLimited) return sendJson(response, 200, readJsonFixture(fixtures, 'error-rate-limit.json'));
    if (request.method === 'POST' && request.path === '/v3/chat') {
      const body = request.body ?? {};
      if (body.bot_id !== fakeCozeBotId) return sendJson(response, 200, readJsonFixture(fixtures, 'error-invalid-bot.json'));
      if (typeof body.user_id !== 'string' || !Array.isArray(body.additional_messages))
        return sendJson(response, 200, { code: 4000, msg: 'user_id and additional_messages are required' });
      if (body.stream === true) {
        const failing = JSON.stringify(body.additional_messages).includes('fail');
        return sendEventStream(response, readStreamFixture(fixtures, failing ? 'chat-failed.chunks.txt' : 'chat-stream.chunks.txt'));
      }
      pendingLeft = pendingPolls;
      return sendJson(response, 200, readJsonFixture(fixtures, 'chat-started.json'));
    }
    const chatQuery = request.query.get('chat_id') === '7382159487131697202' && request.query.get('conversation_id') === '7381473525342978089';
    if (request.method === 'GET' && request.path === '/v3/chat/retrieve' && chatQuery) {
      if (pendingLeft > 0) {
        pendingLeft -= 1;
        return sendJson(response, 200, readJsonFixture(fixtures, 'chat-started.json'));
      }
      return sendJson(response, 200, readJsonFixture(fixtures, 'chat-retrieve-completed.json'));
    }
    if (request.method === 'GET' && request.path === '/v3/chat/message/list' && chatQuery)
      return sendJson(response, 200, readJsonFixture(fixtures, 'chat-message-list.json'));
    sendJson(response, 200, { code: 4001, msg: 'Invalid chat' });
  });
  return {
    ...server,
    setPendingPolls(count) {
      pendingPolls = count;
    },
  };
}
