import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withCallerRequest } from '../../pipeline/answer-format.ts';
import type { RelayEndpoint } from '../../pipeline/relay-endpoints.ts';
import { RelayError } from '../../../../core/http/relay-error.ts';
import { relayRequest } from '../../pipeline/relay-pipeline.ts';
import { claudeRequestSchema } from '../../providers/claude/claude-api.ts';
import type { RelayServices } from '../../relay-services.ts';
import { anthropicAnswerFormat } from './anthropic-answer-format.ts';
import { authenticateAnthropicCaller, readAnthropicBody } from './anthropic-request.ts';
import { sendAnthropicError } from './anthropic-error.ts';
import { convertMessagesRequest } from './convert-messages-request.ts';
import { registerAnthropicCountTokensRoute } from './count-tokens.routes.ts';

/**
 * The request is relayed as the OpenAI chat request it converts to, so every channel type can
 * answer it; the path is the chat path because that is what OpenAI-format channels are sent (the
 * consume log still records `/v1/messages`, the path the caller called).
 */
const messagesEndpoint: RelayEndpoint = { path: '/v1/chat/completions', capability: 'chat', body: 'json', stream: 'chat', answerFormat: anthropicAnswerFormat };

/**
 * The headers of Anthropic's dialect a Claude channel passes on: beta features (interleaved thinking,
 * long context, web fetch…) and the API version the caller's SDK speaks.
 */
function anthropicDialectHeaders(incoming: FastifyRequest['headers']): Record<string, string> | undefined {
  let headers: Record<string, string> | undefined;
  for (const name of ['anthropic-beta', 'anthropic-version'] as const) {
    const value = incoming[name];
    if (value) (headers ??= {})[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

/**
 * POST /v1/messages for Anthropic-format callers (the Anthropic SDKs, Claude Code): key in
 * `x-api-key` or `Authorization`, answers and errors in Anthropic's format, billed like any relay.
 * Also POST /v1/messages/count_tokens (count-tokens.routes.ts).
 */
export function registerAnthropicEntryRoutes(app: FastifyInstance, services: RelayServices): void {
  registerAnthropicCountTokensRoute(app, services);
  app.post('/v1/messages', async (request, reply) => {
    try {
      const caller = await authenticateAnthropicCaller(request, services);
      const data = readAnthropicBody(request, claudeRequestSchema);
      const headers = anthropicDialectHeaders(request.headers);
      const body = withCallerRequest(convertMessagesRequest(data), { dialect: 'anthropic', body: data, ...(headers ? { headers } : {}) });
      // From here on the converted request is THE request: forwarded bytes, prompt checks, counting.
      request.body = Buffer.from(JSON.stringify(body));
      await relayRequest(services, messagesEndpoint, request, reply, caller, body);
    } catch (error) {
      if (!(error instanceof RelayError)) throw error;
      if (!reply.sent && !reply.raw.headersSent) sendAnthropicError(request, reply, error);
    }
    return reply;
  });
}
