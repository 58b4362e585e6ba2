import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../../domain/auth/authenticate.ts';
import { AppError } from '../../../core/http/app-error.ts';
import { ok } from '../../../core/http/envelope.ts';
import type { ListDialect } from '../../../core/http/listing/list-dialect.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import { booleanParameter, textParameter } from '../../../core/http/listing/query-parameters.ts';
import { routeId } from '../../../core/http/listing/route-id.ts';
import { withAndWithoutSlash } from '../../../core/http/listing/route-paths.ts';
import {
  batchTagSchema,
  copyQuerySchema,
  createChannelSchema,
  editTagSchema,
  fetchModelsSchema,
  idListSchema,
  tagSchema,
  updateChannelSchema,
} from './channel-input.ts';
import { tagEditColumns } from './channel-tag-edit.ts';
import type { RecentVerification } from '../two-factor/recent-verification.ts';
import type { ChannelUpstreamService } from './channel-upstream.service.ts';
import { toChannelView } from './channel-view.ts';
import { channelMessages } from './channel.messages.ts';
import type { ChannelService } from './channel.service.ts';
import { defaultModelsByType, type ModelObject } from './model-catalogue.ts';

type Query = Record<string, unknown>;

/** A search's `type_counts`: its matches per channel type. */
function countByType(channels: ReadonlyArray<{ type: number }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { type } of channels) counts[String(type)] = (counts[String(type)] ?? 0) + 1;
  return counts;
}
const admin = { config: { access: 'admin' as const } };
const rowEditFields = new Set(['id', 'status', 'priority', 'weight']);

/** What the channel routes call, built once by channel-module.ts. */
export interface ChannelRouteServices {
  readonly service: ChannelService;
  readonly upstream: ChannelUpstreamService;
  /** The catalogue of `GET /api/channel/models`: every model the gateway knows, as of now. */
  readonly knownModels: () => ModelObject[];
  readonly lists: ListDialect;
  /** The re-verification the token key reveal asks for, asked for the channel key reveal too. */
  readonly reverification: Pick<RecentVerification, 'assert'>;
}

/** Channels: administrators only, except the model catalogue every logged-in user may read. */
export function registerChannelRoutes(app: FastifyInstance, { service, upstream, knownModels, lists, reverification }: ChannelRouteServices): void {
  const typeCounts = async () => ({ type_counts: await service.typeCounts() });
  for (const url of withAndWithoutSlash('/api/channel/')) {
    app.get(url, { config: { access: 'admin', paging: 'by-dialect' } }, async (request) => {
      const query = request.query as Query;
      const page = lists.page(request);
      const tagMode = booleanParameter(query, 'tag_mode');
      const rows = await service.list({ offset: page.offset, limit: page.pageSize }, booleanParameter(query, 'id_sort'), tagMode);
      return ok(await lists.answer(page, rows.map(toChannelView), () => service.count(tagMode), typeCounts));
    });
    app.post(url, admin, async (request) => {
      const { mode, channel, ...classic } = parseInput(createChannelSchema, request.body);
      // Classic clients send one key per line and get one channel per key; current ones say so with `mode`.
      const batch = channel ? mode === 'batch' : true;
      return ok(await service.create(requireUser(request), channel ?? classic, batch));
    });
    app.put(url, admin, async (request) => {
      const body = parseInput(updateChannelSchema, request.body);
      const rowEdit = Object.keys(request.body as object).every((field) => rowEditFields.has(field));
      await service.update(requireUser(request), body.id, body, rowEdit);
      // new-api's consoles update the row from the answer.
      return ok(toChannelView(await service.get(body.id)));
    });
  }

  app.get('/api/channel/search', { config: { access: 'admin', paging: 'by-dialect' } }, async (request) => {
    const query = request.query as Query;
    const search = { keyword: textParameter(query, 'keyword'), group: textParameter(query, 'group'), model: textParameter(query, 'model') };
    if (search.group === 'null') search.group = '';
    const found = (await service.search(search, booleanParameter(query, 'id_sort'))).map(toChannelView);
    return ok(lists.whole(request, found, (all) => ({ type_counts: countByType(all) })));
  });
  app.get('/api/channel/models', admin, async () => ok(knownModels()));
  app.get('/api/channel/models_enabled', admin, async () => ok(await service.enabledModels()));
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
    const { suffix } = parseInput(copyQuerySchema, query);
    const resetBalance = query.reset_balance === undefined ? true : booleanParameter(query, 'reset_balance');
    return ok({ id: await service.copy(requireUser(request), routeId(request.params), suffix, resetBalance) });
  });
  app.post('/api/channel/fix', admin, async (request) => ok(await service.repairAbilities(requireUser(request))));

  app.put('/api/channel/tag', admin, async (request) => {
    const input = parseInput(editTagSchema, request.body);
    if (!input.tag?.trim()) throw new AppError(channelMessages.tagRequired);
    return ok(await service.updateTag(requireUser(request), input.tag.trim(), tagEditColumns(input), 'edit'));
  });
  for (const [action, status, tagAction] of [
    ['enabled', 1, 'enable'],
    ['disabled', 2, 'disable'],
  ] as const) {
    app.post(`/api/channel/tag/${action}`, admin, async (request) => {
      const tag = parseInput(tagSchema, request.body).tag?.trim();
      if (!tag) throw new AppError(channelMessages.tagRequired);
      return ok(await service.updateTag(requireUser(request), tag, { status }, tagAction));
    });
  }

  for (const url of withAndWithoutSlash('/api/channel/update_balance')) {
    app.get(url, admin, async () => ok(await upstream.refreshAllBalances()));
  }
  for (const url of withAndWithoutSlash('/api/channel/update_balance/:id')) {
    app.get(url, admin, async (request) => {
      const balance = await upstream.refreshBalance(routeId(request.params));
      // The classic console reads `balance` beside the envelope.
      return { ...ok(balance), balance };
    });
  }
  app.get('/api/channel/fetch_models/:id', admin, async (request) => ok(await upstream.modelsOfChannel(routeId(request.params))));
  app.post('/api/channel/fetch_models', admin, async (request) => {
    const body = parseInput(fetchModelsSchema, request.body);
    return ok(await upstream.models({ type: body.type ?? 1, baseUrl: body.base_url, key: body.key ?? '', other: body.other }));
  });

  // The only way a key leaves the server: an explicit, audited action of the super administrator,
  // after a recent second-factor check when root has one (as the token key reveal).
  app.post('/api/channel/:id/key', { config: { access: 'root' } }, async (request) => {
    const caller = requireUser(request);
    await reverification.assert(request, caller.id);
    return ok({ key: await service.revealKey(caller, routeId(request.params)) });
  });

  for (const url of withAndWithoutSlash('/api/channel/:id')) {
    app.get(url, admin, async (request) => ok(toChannelView(await service.get(routeId(request.params)))));
    app.delete(url, admin, async (request) => {
      await service.deleteOne(requireUser(request), routeId(request.params));
      return ok();
    });
  }
}
