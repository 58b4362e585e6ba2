import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { requireUser } from '../../auth/authenticate.ts';
import { AppError } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import { booleanParameter, textParameter, zeroBasedPage } from '../listing/page-query.ts';
import { parseInput } from '../listing/parse-input.ts';
import { withAndWithoutSlash } from '../listing/route-paths.ts';
import { batchTagSchema, createChannelSchema, editTagSchema, fetchModelsSchema, idListSchema, tagSchema, updateChannelSchema } from './channel-input.ts';
import { tagEditColumns } from './channel-tag-edit.ts';
import { ChannelUpstreamService } from './channel-upstream.service.ts';
import { toChannelView } from './channel-view.ts';
import { ChannelRepository } from './channel.repository.ts';
import { channelMessages } from './channel.messages.ts';
import { ChannelService } from './channel.service.ts';
import { defaultModelsByType, knownModels } from './model-catalogue.ts';

type Query = Record<string, unknown>;
const admin = { config: { access: 'admin' as const } };
const idParameter = z.object({ id: z.coerce.number().int().positive() });
const rowEditFields = new Set(['id', 'status', 'priority', 'weight']);

/** Channels: administrators only, except the model catalogue every logged-in user may read. */
export function registerChannelRoutes(app: FastifyInstance, context: AppContext): void {
  const repository = new ChannelRepository(context.database.db, context.database.dialect);
  const service = new ChannelService(repository, context);
  const upstream = new ChannelUpstreamService(repository, context.clock);

  for (const url of withAndWithoutSlash('/api/channel/')) {
    app.get(url, admin, async (request) => {
      const query = request.query as Query;
      const rows = await service.list(zeroBasedPage(query), booleanParameter(query, 'id_sort'), booleanParameter(query, 'tag_mode'));
      return ok(rows.map(toChannelView));
    });
    app.post(url, admin, async (request) => {
      const body = parseInput(createChannelSchema, request.body);
      const fields = 'channel' in body ? body.channel : body;
      // Classic clients send one key per line and get one channel per key; current ones say so with `mode`.
      const batch = 'channel' in body ? body.mode === 'batch' : true;
      return ok(await service.create(requireUser(request), fields, batch));
    });
    app.put(url, admin, async (request) => {
      const body = parseInput(updateChannelSchema, request.body);
      const rowEdit = Object.keys(request.body as object).every((field) => rowEditFields.has(field));
      await service.update(requireUser(request), body.id, body, rowEdit);
      return ok();
    });
  }

  app.get('/api/channel/search', admin, async (request) => {
    const query = request.query as Query;
    const search = { keyword: textParameter(query, 'keyword'), group: textParameter(query, 'group'), model: textParameter(query, 'model') };
    if (search.group === 'null') search.group = '';
    return ok((await service.search(search, booleanParameter(query, 'id_sort'))).map(toChannelView));
  });
  app.get('/api/channel/models', admin, async () => ok(knownModels(context.options, context.clock.unixSeconds())));
  app.get('/api/models', { config: { access: 'user' } }, async () => ok(defaultModelsByType()));

  for (const url of withAndWithoutSlash('/api/channel/disabled')) {
    app.delete(url, admin, async (request) => ok(await service.deleteDisabled(requireUser(request))));
  }
  app.post('/api/channel/batch', admin, async (request) => {
    const { ids } = parseInput(idListSchema, request.body);
    if (ids.length === 0) throw new AppError(channelMessages.selectChannelsToDelete);
    return ok(await service.delete(requireUser(request), ids));
  });
  app.post('/api/channel/batch/tag', admin, async (request) => {
    const { ids, tag } = parseInput(batchTagSchema, request.body);
    if (ids.length === 0) throw new AppError(channelMessages.selectChannelsToTag);
    if (!tag?.trim()) throw new AppError(channelMessages.tagRequired);
    return ok(await service.setTagOn(requireUser(request), ids, tag.trim()));
  });
  app.post('/api/channel/copy/:id', admin, async (request) => {
    const query = request.query as Query;
    const suffix = typeof query.suffix === 'string' ? query.suffix : '_复制';
    const resetBalance = query.reset_balance === undefined ? true : booleanParameter(query, 'reset_balance');
    return ok({ id: await service.copy(requireUser(request), parseInput(idParameter, request.params).id, suffix, resetBalance) });
  });
  app.post('/api/channel/fix', admin, async (request) => ok(await service.repairAbilities(requireUser(request))));

  app.put('/api/channel/tag', admin, async (request) => {
    const input = parseInput(editTagSchema, request.body);
    if (!input.tag?.trim()) throw new AppError(channelMessages.tagRequired);
    return ok(await service.updateTag(requireUser(request), input.tag.trim(), tagEditColumns(input), '编辑了标签渠道'));
  });
  for (const [action, status, description] of [['enabled', 1, '启用了标签渠道'], ['disabled', 2, '禁用了标签渠道']] as const) {
    app.post(`/api/channel/tag/${action}`, admin, async (request) => {
      const parsed = tagSchema.safeParse(request.body ?? {});
      if (!parsed.success) throw new AppError(channelMessages.tagRequired);
      return ok(await service.updateTag(requireUser(request), parsed.data.tag, { status }, description));
    });
  }

  for (const url of withAndWithoutSlash('/api/channel/update_balance')) {
    app.get(url, admin, async () => ok(await upstream.refreshAllBalances()));
  }
  for (const url of withAndWithoutSlash('/api/channel/update_balance/:id')) {
    app.get(url, admin, async (request) => {
      const balance = await upstream.refreshBalance(parseInput(idParameter, request.params).id);
      // The classic console reads `balance` beside the envelope.
      return { ...ok(balance), balance };
    });
  }
  app.get('/api/channel/fetch_models/:id', admin, async (request) => ok(await upstream.modelsOfChannel(parseInput(idParameter, request.params).id)));
  app.post('/api/channel/fetch_models', admin, async (request) => {
    const body = parseInput(fetchModelsSchema, request.body);
    return ok(await upstream.models({ type: body.type ?? 1, baseUrl: body.base_url, key: body.key ?? '' }));
  });

  for (const url of withAndWithoutSlash('/api/channel/:id')) {
    app.get(url, admin, async (request) => ok(toChannelView(await service.get(parseInput(idParameter, request.params).id))));
    app.delete(url, admin, async (request) => {
      await service.deleteOne(requireUser(request), parseInput(idParameter, request.params).id);
      return ok();
    });
  }
}
