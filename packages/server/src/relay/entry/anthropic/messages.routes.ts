import type { FastifyInstance } from 'fastify';
import { safeParseJson } from '../../../platform/safe-json.ts';
import { withCallerRequest } from '../../pipeline/answer-format.ts';
import { authenticateToken } from '../../pipeline/caller-auth.ts';
import type { RelayEndpoint } from '../../pipeline/relay-endpoints.ts';
import { RelayError } from '../../pipeline/relay-error.ts';
import { readRelayKey } from '../../pipeline/relay-key.ts';
import { relayRequest } from '../../pipeline/relay-pipeline.ts';
import { claudeRequestSchema } from '../../providers/claude/claude-api.ts';
import type { RelayServices } from '../../relay-services.ts';
import { anthropicAnswerFormat } from './anthropic-answer-format.ts';
import { anthropicEntryMessages } from './anthropic-entry.messages.ts';
import { sendAnthropicError } from './anthropic-error.ts';
import { convertMessagesRequest } from './convert-messages-request.ts';

/**
 * The request is relayed as the OpenAI chat request it converts to, so every channel type can
 * answer it; the path is the chat path because that is what OpenAI-format channels are sent (the
 * consume log still records `/v1/messages`, the path the caller called).
 */
const messagesEndpoint: RelayEndpoint = { path: '/v1/chat/completions', capability: 'chat', body: 'json', stream: 'chat', answerFormat: anthropicAnswerFormat };

/**
 * POST /v1/messages for Anthropic-format callers (the Anthropic SDKs, Claude Code): key in
 * `x-api-key` or `Authorization`, answers and errors in Anthropic's format, billed like any relay.
 */
export function registerAnthropicEntryRoutes(app: FastifyInstance, services: RelayServices): void {
  app.post('/v1/messages', async (request, reply) => {
    try {
      const caller = await authenticateToken(readRelayKey(request.headers, '/v1/messages', request.query as Record<string, unknown>), request.ip, {
        tokens: services.tokens,
        users: services.users,
        options: services.context.options,
        nowSeconds: services.context.clock.unixSeconds(),
      });
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const json = safeParseJson(raw.toString('utf8'));
      const parsed = json.ok ? claudeRequestSchema.safeParse(json.value) : undefined;
      if (!parsed?.success) {
        const detail = json.ok ? (parsed?.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') ?? '') : json.error;
        throw new RelayError(400, 'invalid_request', anthropicEntryMessages.invalidBody, { params: { detail }, type: 'invalid_request_error' });
      }
      // Beta features (interleaved thinking, long context…) are asked for by header; Claude channels pass it on.
      const beta = request.headers['anthropic-beta'];
      const headers = beta ? { 'anthropic-beta': Array.isArray(beta) ? beta.join(',') : beta } : undefined;
      const body = withCallerRequest(convertMessagesRequest(parsed.data), { dialect: 'anthropic', body: parsed.data, ...(headers ? { headers } : {}) });
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
