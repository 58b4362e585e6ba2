import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import { routeId } from '../../../core/http/listing/route-id.ts';
import { languageFromHeader, renderMessage } from '../../../core/messages/catalogue.ts';
import { channelHealthMessages } from './channel-health.messages.ts';
import type { ChannelTestService } from './channel-test.service.ts';

const testQuery = z.object({ model: z.string().trim().optional() });

/** GET /api/channel/test/:id and GET /api/channel/test (administrators); the rules are ChannelTestService's. */
export function registerChannelTestRoutes(app: FastifyInstance, tests: ChannelTestService): void {
  app.get('/api/channel/test/:id', { config: { access: 'admin' } }, async (request) => {
    const id = routeId(request.params);
    const { model } = parseInput(testQuery, request.query);
    const result = await tests.testOne(id, model);
    const language = languageFromHeader(request.headers['accept-language'], 'zh');
    const time = Number((result.elapsedMs / 1000).toFixed(3));
    if (result.notRelayedReason !== undefined)
      return { success: false, message: renderMessage(channelHealthMessages.notRelayed, language, { reason: result.notRelayedReason }), time };
    if (!result.ok) return { success: false, message: renderMessage(channelHealthMessages.testFailed, language, { reason: result.message }), time };
    // Passed upstream; `unpriced` (and the message) warn that callers would still be refused the model.
    const message = result.unpriced ? renderMessage(channelHealthMessages.passedButUnpriced, language, { model: result.model }) : '';
    return { success: true, message, time, model: result.model, unpriced: result.unpriced };
  });

  app.get('/api/channel/test', { config: { access: 'admin' } }, async (request) => {
    const language = languageFromHeader(request.headers['accept-language'], 'zh');
    if (!tests.startAll()) return { success: false, message: renderMessage(channelHealthMessages.testAlreadyRunning, language) };
    return { success: true, message: renderMessage(channelHealthMessages.testStarted, language) };
  });
}
