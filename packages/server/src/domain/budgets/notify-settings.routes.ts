import { notifySettingsRequestSchema } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth/authenticate.ts';
import { parseInput } from '../../core/http/listing/parse-input.ts';
import { localize } from '../../core/http/localize.ts';
import { ok } from '../../core/http/envelope.ts';
import { notifySettingsMessages } from './notify-settings.messages.ts';
import type { NotifySettingsService } from './notify-settings.service.ts';

const user = { config: { access: 'user' as const } };

/** new-api's personal notification settings: the user's own, on the settings our alerts read. */
export function registerNotifySettingsRoutes(app: FastifyInstance, settings: NotifySettingsService): void {
  app.put('/api/user/setting', user, async (request) => {
    await settings.save(requireUser(request).id, parseInput(notifySettingsRequestSchema, request.body));
    return ok(undefined, localize(request, notifySettingsMessages.saved));
  });
}
