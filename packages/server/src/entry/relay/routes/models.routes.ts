import type { FastifyInstance } from 'fastify';
import { readPriceTables } from '../../../domain/billing/price-tables.ts';
import { authenticateToken, type RelayCaller } from '../pipeline/caller-auth.ts';
import { RelayError } from '../../../core/http/relay-error.ts';
import { readRelayKey } from '../pipeline/relay-key.ts';
import { relayMessages } from '../relay.messages.ts';
import type { RelayServices } from '../relay-services.ts';
import { answerRelay } from './relay.routes.ts';

/**
 * Exactly the models this key may use: routed in its group, allowed by its model limits, and
 * priced (unless unpriced models are accepted) — so a client never lists a model it cannot call.
 */
export function modelsForCaller(services: RelayServices, caller: RelayCaller): string[] {
  const tables = readPriceTables(services.options);
  const acceptUnpriced = services.options.getBoolean('SelfUseModeEnabled') || caller.user.acceptUnpriced;
  const limits = caller.token?.modelLimits;
  return services.channels
    .modelsOf(caller.usingGroup)
    .filter((model) => !limits || limits.has(model))
    .filter((model) => acceptUnpriced || model in tables.modelPrice || model in tables.modelRatio)
    .sort();
}

const modelObject = (id: string, created: number) => ({ id, object: 'model', created, owned_by: 'switchboard' });

export function registerModelRoutes(app: FastifyInstance, services: RelayServices): void {
  const caller = (headers: Parameters<typeof readRelayKey>[0], path: string, query: unknown, ip: string) =>
    authenticateToken(readRelayKey(headers, path, query as Record<string, unknown>), ip, {
      tokens: services.tokens,
      keyGuesses: services.keyGuesses,
      users: services.users,
      options: services.options,
      nowSeconds: services.clock.unixSeconds(),
    });

  app.get('/v1/models', async (request, reply) => {
    await answerRelay(request, reply, async () => {
      const models = modelsForCaller(services, await caller(request.headers, '/v1/models', request.query, request.ip));
      const created = services.startTime;
      reply.send({ object: 'list', data: models.map((id) => modelObject(id, created)) });
    });
    return reply;
  });

  app.get('/v1/models/*', async (request, reply) => {
    await answerRelay(request, reply, async () => {
      const id = decodeURIComponent((request.params as { '*': string })['*']);
      const models = modelsForCaller(services, await caller(request.headers, '/v1/models', request.query, request.ip));
      if (!models.includes(id))
        throw new RelayError(404, 'model_not_found', relayMessages.modelNotFound, { type: 'invalid_request_error', params: { model: id } });
      reply.send(modelObject(id, services.startTime));
    });
    return reply;
  });
}
