import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { authenticateToken } from '../pipeline/caller-auth.ts';
import { relayEndpoints, type RelayEndpoint } from '../pipeline/relay-endpoints.ts';
import { RelayError, sendRelayError } from '../../../core/http/relay-error.ts';
import { relayRequest } from '../pipeline/relay-pipeline.ts';
import { readRelayKey } from '../pipeline/relay-key.ts';
import { relayMessages } from '../relay.messages.ts';
import type { RelayServices } from '../relay-services.ts';

/** The JSON body of a relay request, parsed once from the bytes that are also forwarded. */
export function parseJsonBody(endpoint: RelayEndpoint, raw: Buffer): unknown {
  if (endpoint.body !== 'json') return undefined;
  const parsed = safeParseJson(raw.toString('utf8'));
  if (!parsed.ok) throw new RelayError(400, 'invalid_request', relayMessages.invalidRequest);
  return parsed.value;
}

/** Runs a relay handler and renders a refusal in OpenAI's shape (unless the stream already started). */
export async function answerRelay(request: FastifyRequest, reply: FastifyReply, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof RelayError)) throw error;
    if (reply.sent || reply.raw.headersSent) return;
    sendRelayError(request, reply, error);
  }
}

/** POST /v1/chat/completions, /v1/completions, /v1/embeddings, images, audio, moderations, rerank, responses. */
export function registerRelayEndpoints(app: FastifyInstance, services: RelayServices): void {
  for (const endpoint of relayEndpoints) {
    app.post(endpoint.path, async (request, reply) => {
      await answerRelay(request, reply, async () => {
        const caller = await authenticateToken(readRelayKey(request.headers, endpoint.path, request.query as Record<string, unknown>), request.ip, {
          tokens: services.tokens,
          keyGuesses: services.keyGuesses,
          users: services.users,
          options: services.options,
          nowSeconds: services.clock.unixSeconds(),
        });
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        await relayRequest(services, endpoint, request, reply, caller, parseJsonBody(endpoint, body));
      });
      return reply;
    });
  }
}
