import type { FastifyInstance } from 'fastify';
import { ChannelStatus } from '@switchboard/contracts';
import { z } from 'zod';
import { AppError } from '../../http/app-error.ts';
import { commonMessages, languageFromHeader, renderMessage } from '../../messages/catalogue.ts';
import type { RelayServices } from '../relay-services.ts';
import type { ChannelRecord } from '../cache/channel-cache.ts';
import { channelHealthMessages } from './channel-health.messages.ts';
import { testChannel, type ChannelTestResult } from './channel-tester.ts';
import { ChannelStatusRepository } from './channel-status.repository.ts';

const testParams = z.object({ id: z.coerce.number().int().positive() });
const testQuery = z.object({ model: z.string().trim().optional() });

/**
 * Tests a channel, records its response time, and applies the health rules: a dead-credential
 * failure or a response slower than ChannelDisableThreshold disables an enabled channel (when
 * automatic disabling is on); a success re-enables an auto-disabled one (when automatic enabling is on).
 */
async function runTest(services: RelayServices, repository: ChannelStatusRepository, channel: ChannelRecord, model: string | undefined): Promise<ChannelTestResult> {
  const result = await testChannel(channel, model, Math.max(services.timeouts.headersMs, 5_000), () => services.context.clock.now());
  await repository.recordTest(channel.id, result.ok ? result.elapsedMs : 0, services.context.clock.unixSeconds());
  const thresholdSeconds = services.context.options.getNumber('ChannelDisableThreshold');
  if (!result.ok && result.disablesChannel && services.health.mayDisable(channel)) await services.health.disable(channel, result.message);
  else if (result.ok && thresholdSeconds > 0 && result.elapsedMs > thresholdSeconds * 1000 && services.health.mayDisable(channel)) {
    await services.health.disable(channel, renderMessage(channelHealthMessages.tooSlow, 'en', { seconds: (result.elapsedMs / 1000).toFixed(2), threshold: thresholdSeconds }));
  } else if (result.ok) await services.health.enableAfterSuccess(channel);
  return result;
}

/** GET /api/channel/test/:id and GET /api/channel/test (administrators). */
export function registerChannelTestRoutes(app: FastifyInstance, services: RelayServices): void {
  const repository = new ChannelStatusRepository(services.context.database.db);
  let running = false;

  app.get('/api/channel/test/:id', { config: { access: 'admin' } }, async (request) => {
    const params = testParams.safeParse(request.params);
    const query = testQuery.safeParse(request.query);
    if (!params.success || !query.success) throw new AppError(commonMessages.invalidParameter, { status: 400 });
    const { id } = params.data;
    const { model } = query.data;
    await services.channels.reload();
    const channel = services.channels.get(id);
    if (!channel) throw new AppError(channelHealthMessages.channelNotFound);
    const result = await runTest(services, repository, channel, model);
    const language = languageFromHeader(request.headers['accept-language'], 'zh');
    const time = Number((result.elapsedMs / 1000).toFixed(3));
    if (!result.ok) return { success: false, message: renderMessage(channelHealthMessages.testFailed, language, { reason: result.message }), time };
    return { success: true, message: '', time };
  });

  app.get('/api/channel/test', { config: { access: 'admin' } }, async (request) => {
    const language = languageFromHeader(request.headers['accept-language'], 'zh');
    if (running) return { success: false, message: renderMessage(channelHealthMessages.testAlreadyRunning, language) };
    running = true;
    const channels = services.channels.all().filter((channel) => channel.status === ChannelStatus.enabled || channel.status === ChannelStatus.autoDisabled);
    void (async () => {
      for (const channel of channels) await runTest(services, repository, channel, undefined).catch((error: unknown) => services.context.logger.warn({ err: error, channelId: channel.id }, 'channel test failed'));
    })().finally(() => {
      running = false;
    });
    return { success: true, message: renderMessage(channelHealthMessages.testStarted, language) };
  });
}
