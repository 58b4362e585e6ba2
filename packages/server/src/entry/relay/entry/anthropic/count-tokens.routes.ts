import type { FastifyInstance } from 'fastify';
import { checkModelAllowed } from '../../pipeline/caller-auth.ts';
import { countPromptTokens } from '../../pipeline/count-prompt-tokens.ts';
import { RelayError } from '../../../../core/http/relay-error.ts';
import { claudeRequestSchema } from '../../providers/claude/claude-api.ts';
import type { RelayServices } from '../../relay-services.ts';
import { authenticateAnthropicCaller, readAnthropicBody } from './anthropic-request.ts';
import { sendAnthropicError } from './anthropic-error.ts';
import { convertMessagesRequest } from './convert-messages-request.ts';

/** A count_tokens body: a Messages request without max_tokens. */
const countTokensRequestSchema = claudeRequestSchema.omit({ max_tokens: true });

/**
 * POST /v1/messages/count_tokens: `{"input_tokens": N}` for a Messages request, counted locally
 * over the converted request as the relay counts prompts (see countPromptTokens), whatever channel
 * would serve the model. Authenticated like /v1/messages; nothing is billed or logged.
 * @see https://docs.anthropic.com/en/api/messages-count-tokens
 */
export function registerAnthropicCountTokensRoute(app: FastifyInstance, services: RelayServices): void {
  app.post('/v1/messages/count_tokens', async (request, reply) => {
    try {
      const caller = await authenticateAnthropicCaller(request, services);
      const body = readAnthropicBody(request, countTokensRequestSchema);
      checkModelAllowed(caller, body.model);
      // max_tokens plays no part in the prompt; the converter only carries it over.
      const inputTokens = await countPromptTokens(convertMessagesRequest({ ...body, max_tokens: 1 }));
      return reply.send({ input_tokens: inputTokens });
    } catch (error) {
      if (!(error instanceof RelayError)) throw error;
      return sendAnthropicError(request, reply, error);
    }
  });
}
