import type { FastifyInstance } from 'fastify';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import { withCallerRequest } from '../../pipeline/answer-format.ts';
import { authenticateToken, checkModelAllowed } from '../../pipeline/caller-auth.ts';
import type { RelayEndpoint } from '../../pipeline/relay-endpoints.ts';
import { RelayError } from '../../../../core/http/relay-error.ts';
import { readRelayKey } from '../../pipeline/relay-key.ts';
import { relayRequest } from '../../pipeline/relay-pipeline.ts';
import { geminiRequestSchema } from '../../providers/gemini/gemini-api.ts';
import type { RelayServices } from '../../relay-services.ts';
import { batchEmbedAnswerFormat, convertEmbedRequest, embedContentAnswerFormat } from './convert-embed.ts';
import { convertGenerateRequest } from './convert-generate-request.ts';
import { countGeminiTokens } from './count-tokens.ts';
import { geminiAnswerFormat, geminiArrayAnswerFormat } from './gemini-answer-format.ts';
import { geminiEntryMessages } from './gemini-entry.messages.ts';
import { sendGeminiError } from './gemini-error.ts';

/** Relayed as the OpenAI chat request it converts to (see the Anthropic entry for why the path and what is logged). */
const sseEndpoint: RelayEndpoint = { path: '/v1/chat/completions', capability: 'chat', body: 'json', stream: 'chat', answerFormat: geminiAnswerFormat };
const arrayEndpoint: RelayEndpoint = { ...sseEndpoint, answerFormat: geminiArrayAnswerFormat };
const embedEndpoint: RelayEndpoint = { path: '/v1/embeddings', capability: 'embeddings', body: 'json', stream: 'none', answerFormat: embedContentAnswerFormat };
const batchEmbedEndpoint: RelayEndpoint = { ...embedEndpoint, answerFormat: batchEmbedAnswerFormat };

/** `models/gemini-2.5-flash:streamGenerateContent` → model and method. */
export function splitModelMethod(path: string): { model: string; method: string } {
  const separator = path.lastIndexOf(':');
  if (separator < 0) return { model: path, method: '' };
  return { model: path.slice(0, separator), method: path.slice(separator + 1) };
}

/**
 * POST /v1beta/models/{model}:generateContent, :streamGenerateContent, :embedContent,
 * :batchEmbedContents and :countTokens (counted locally, unbilled) for Gemini-format callers:
 * key in `?key=` or `x-goog-api-key`, answers and errors in Gemini's format, billed like any relay.
 */
export function registerGeminiEntryRoutes(app: FastifyInstance, services: RelayServices): void {
  app.post('/v1beta/models/*', async (request, reply) => {
    try {
      const query = request.query as Record<string, unknown>;
      const caller = await authenticateToken(readRelayKey(request.headers, '/v1beta/models', query), request.ip, {
        tokens: services.tokens,
        keyGuesses: services.keyGuesses,
        users: services.users,
        options: services.options,
        nowSeconds: services.clock.unixSeconds(),
      });
      const { model, method } = splitModelMethod(decodeURIComponent((request.params as { '*': string })['*']));
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const json = safeParseJson(raw.toString('utf8'));
      if (method === 'countTokens') {
        checkModelAllowed(caller, model);
        reply.send(await countGeminiTokens(json, model));
        return reply;
      }
      if (method === 'embedContent' || method === 'batchEmbedContents') {
        const batch = method === 'batchEmbedContents';
        const embed =
          json.ok && json.value !== null && typeof json.value === 'object'
            ? convertEmbedRequest(json.value as Record<string, unknown>, model, batch)
            : undefined;
        if (!embed)
          throw new RelayError(400, 'invalid_request', geminiEntryMessages.invalidBody, { params: { detail: json.ok ? 'no content to embed' : json.error } });
        request.body = Buffer.from(JSON.stringify(embed));
        await relayRequest(services, batch ? batchEmbedEndpoint : embedEndpoint, request, reply, caller, embed);
        return reply;
      }
      if (method !== 'generateContent' && method !== 'streamGenerateContent')
        throw new RelayError(501, 'unsupported_method', geminiEntryMessages.unsupportedMethod, { params: { method: method || model } });
      const parsed = json.ok ? geminiRequestSchema.safeParse(json.value) : undefined;
      if (!parsed?.success) {
        const detail = json.ok ? (parsed?.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') ?? '') : json.error;
        throw new RelayError(400, 'invalid_request', geminiEntryMessages.invalidBody, { params: { detail } });
      }
      const stream = method === 'streamGenerateContent';
      const body = withCallerRequest(convertGenerateRequest(parsed.data, model, stream), { dialect: 'gemini', body: parsed.data });
      request.body = Buffer.from(JSON.stringify(body));
      await relayRequest(services, stream && query.alt !== 'sse' ? arrayEndpoint : sseEndpoint, request, reply, caller, body);
    } catch (error) {
      if (!(error instanceof RelayError)) throw error;
      if (!reply.sent && !reply.raw.headersSent) sendGeminiError(request, reply, error);
    }
    return reply;
  });
}
