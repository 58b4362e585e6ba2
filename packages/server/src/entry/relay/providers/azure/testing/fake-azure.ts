import { readJsonFixture, readStreamFixture } from '../../claude/testing/fixtures.ts';
import { sendEventStream, sendJson, startFakeServer, type FakeResponse, type FakeServer, type ReceivedRequest } from '../../claude/testing/fake-server.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** Keys the fake refuses, with the error Azure answers. */
export const fakeAzureKeys = { invalid: 'azure-invalid-key', rateLimited: 'azure-rate-limited' } as const;

const usage = { prompt_tokens: 19, completion_tokens: 10, total_tokens: 29, prompt_tokens_details: { cached_tokens: 0 } };

/**
 * The first API version (its date) that accepts each request argument. Written out here rather than
 * imported from the provider, so the fake checks the provider instead of agreeing with it.
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/api-version-lifecycle
 */
const firstVersionAccepting: Readonly<Record<string, string>> = { stream_options: '2024-09-01', tools: '2023-12-01', tool_choice: '2023-12-01' };

/** The argument an API version does not know, as Azure names it in its 400. */
function unrecognizedArgument(body: Record<string, unknown> | undefined, apiVersion: string): string | undefined {
  const date = /^(\d{4}-\d{2}-\d{2})(?:-preview)?$/.exec(apiVersion)?.[1];
  if (!date || !body) return undefined;
  return Object.keys(firstVersionAccepting).find((argument) => argument in body && date < (firstVersionAccepting[argument] ?? ''));
}

/** A tool-calling turn (recorded from Azure), streamed or not; the usage frame only when asked for. */
function answerToolCall(request: ReceivedRequest, response: FakeResponse): void {
  if (request.body?.stream !== true) return sendJson(response, 200, readJsonFixture(fixtures, 'chat-completion-tool-call.json'));
  const includeUsage = (request.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  const frames = readStreamFixture(fixtures, 'chat-completion-tool-call.chunks.txt').split(/(?<=\n\n)/);
  sendEventStream(response, frames.filter((frame) => includeUsage || !frame.includes('"usage":{')).join(''));
}

function answerText(request: ReceivedRequest, response: FakeResponse, deployment: string): void {
  const created = 1_700_000_000;
  if (request.body?.stream === true) {
    const chunk = (delta: Record<string, unknown>, finish: string | null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-azure', object: 'chat.completion.chunk', created, model: deployment, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const includeUsage = (request.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
    const tail = includeUsage
      ? `data: ${JSON.stringify({ id: 'chatcmpl-azure', object: 'chat.completion.chunk', created, model: deployment, choices: [], usage })}\n\n`
      : '';
    return sendEventStream(
      response,
      `data: ${JSON.stringify({ choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] })}\n\n${chunk({ role: 'assistant', content: '' }, null)}${chunk({ content: 'Hello from Azure' }, null)}${chunk({}, 'stop')}${tail}data: [DONE]\n\n`,
    );
  }
  sendJson(response, 200, {
    id: 'chatcmpl-azure',
    object: 'chat.completion',
    created,
    model: deployment,
    prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }],
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Hello from Azure' }, content_filter_results: {} }],
    usage,
  });
}

/**
 * Azure OpenAI on 127.0.0.1: `POST /openai/deployments/{deployment}/chat/completions?api-version=…`
 * with the `api-key` header, answering in OpenAI's format (Azure adds the content-filter results).
 * Strict like Azure: an argument the request's API version predates is refused with Azure's 400.
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/reference#chat-completions
 */
export function startFakeAzure(): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    const match = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/.exec(request.path);
    const apiVersion = request.query.get('api-version');
    if (!match || !apiVersion) return sendJson(response, 404, { error: { code: '404', message: 'Resource not found' } });
    const key = request.headers['api-key'];
    if (key === fakeAzureKeys.invalid) {
      return sendJson(response, 401, {
        error: {
          code: '401',
          message:
            'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
        },
      });
    }
    if (key === fakeAzureKeys.rateLimited) return sendJson(response, 429, readJsonFixture(fixtures, 'error-rate-limit.json'), { 'retry-after': '6' });
    const unknown = unrecognizedArgument(request.body, apiVersion);
    if (unknown)
      return sendJson(response, 400, {
        error: { message: `Unrecognized request argument supplied: ${unknown}`, type: 'invalid_request_error', param: null, code: null },
      });
    if (Array.isArray(request.body?.tools) && request.body.tools.length > 0) return answerToolCall(request, response);
    answerText(request, response, decodeURIComponent(match[1] ?? ''));
  });
}
