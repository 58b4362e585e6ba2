import { readJsonFixture, readStreamFixture } from '../../../providers/claude/testing/fixtures.ts';
import { sendEventStream, sendJson, startFakeServer, type FakeServer } from '../../../providers/claude/testing/fake-server.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/**
 * OpenAI's Chat Completions on 127.0.0.1 for a tool-use round trip: a request that offers tools is
 * answered with a recorded tool call (streamed or not; the usage chunk only when asked for), and a
 * request whose last message is the tool's result with the recorded final answer.
 * @see https://platform.openai.com/docs/guides/function-calling
 */
export function startFakeOpenAITools(): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    if (request.method !== 'POST' || request.path !== '/v1/chat/completions')
      return sendJson(response, 404, { error: { message: `Unknown path ${request.path}`, type: 'invalid_request_error', param: null, code: null } });
    if (!String(request.headers.authorization ?? '').startsWith('Bearer ')) {
      return sendJson(response, 401, { error: { message: "You didn't provide an API key.", type: 'invalid_request_error', param: null, code: null } });
    }
    const messages = Array.isArray(request.body?.messages) ? (request.body.messages as { role?: unknown }[]) : [];
    if (messages.at(-1)?.role === 'tool') return sendJson(response, 200, readJsonFixture(fixtures, 'openai-tool-result-answer.json'));
    if (request.body?.stream !== true) return sendJson(response, 200, readJsonFixture(fixtures, 'openai-tool-call.json'));
    const includeUsage = (request.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const frames = readStreamFixture(fixtures, 'openai-tool-call.chunks.txt').split(/(?<=\n\n)/);
    sendEventStream(response, frames.filter((frame) => includeUsage || !frame.includes('"usage":{')).join(''));
  });
}
