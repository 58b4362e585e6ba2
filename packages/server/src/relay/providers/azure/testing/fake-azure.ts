import { sendEventStream, sendJson, startFakeServer, type FakeServer } from '../../claude/testing/fake-server.ts';

/** The key the fake refuses, as Azure does (401 with its subscription-key message). */
export const fakeAzureInvalidKey = 'azure-invalid-key';

const usage = { prompt_tokens: 19, completion_tokens: 10, total_tokens: 29, prompt_tokens_details: { cached_tokens: 0 } };

/**
 * Azure OpenAI on 127.0.0.1: `POST /openai/deployments/{deployment}/chat/completions?api-version=…`
 * with the `api-key` header, answering in OpenAI's format (Azure adds prompt_filter_results).
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/reference#chat-completions
 */
export function startFakeAzure(): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    const match = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/.exec(request.path);
    if (!match || !request.query.get('api-version')) return sendJson(response, 404, { error: { code: '404', message: 'Resource not found' } });
    if (request.headers['api-key'] === fakeAzureInvalidKey) {
      return sendJson(response, 401, { error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.' } });
    }
    const deployment = decodeURIComponent(match[1] ?? '');
    const created = 1_700_000_000;
    if (request.body?.stream === true) {
      const chunk = (delta: Record<string, unknown>, finish: string | null) => `data: ${JSON.stringify({ id: 'chatcmpl-azure', object: 'chat.completion.chunk', created, model: deployment, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      const includeUsage = (request.body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
      const tail = includeUsage ? `data: ${JSON.stringify({ id: 'chatcmpl-azure', object: 'chat.completion.chunk', created, model: deployment, choices: [], usage })}\n\n` : '';
      return sendEventStream(response, `data: ${JSON.stringify({ choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }] })}\n\n${chunk({ role: 'assistant', content: '' }, null)}${chunk({ content: 'Hello from Azure' }, null)}${chunk({}, 'stop')}${tail}data: [DONE]\n\n`);
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
  });
}
