import { createModelMetaSchema, createVendorSchema, modelSyncSchema, updateModelMetaSchema, updateVendorSchema } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../../core/http/envelope.ts';
import { pageFrom } from '../../../core/http/listing/page-query.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import { booleanParameter, textParameter } from '../../../core/http/listing/query-parameters.ts';
import { routeId } from '../../../core/http/listing/route-id.ts';
import { withAndWithoutSlash } from '../../../core/http/listing/route-paths.ts';
import type { ModelMetaService } from './model-meta.service.ts';
import type { ModelSyncService } from './model-sync.service.ts';
import type { VendorService } from './vendor.service.ts';

const admin = { config: { access: 'admin' as const } };
const adminList = { config: { access: 'admin' as const, paging: 'from-one' as const } };

export interface ModelCatalogueServices {
  models: ModelMetaService;
  vendors: VendorService;
  sync: ModelSyncService;
}

/**
 * new-api's `/api/models/…` and `/api/vendors/…` (router/api-router.go), administrators only; lists
 * page from 1 and answer `{items, total, page, page_size}`. `GET /api/models` without the slash stays
 * the user route of the channel form's default models, as in new-api, so only `GET /api/models/` lists.
 */
export function registerModelCatalogueRoutes(app: FastifyInstance, { models, vendors, sync }: ModelCatalogueServices): void {
  app.get('/api/models/', adminList, async (request) => ok(await models.search({ keyword: '', vendor: '' }, pageFrom(request))));
  app.get('/api/models/search', adminList, async (request) =>
    ok(await models.search({ keyword: textParameter(request.query, 'keyword'), vendor: textParameter(request.query, 'vendor') }, pageFrom(request))),
  );
  app.get('/api/models/missing', admin, async () => ok(await sync.missing()));
  app.get('/api/models/sync_upstream/preview', admin, async (request) => ok(await sync.preview(textParameter(request.query, 'locale'))));
  app.post('/api/models/sync_upstream', admin, async (request) => ok(await sync.sync(parseInput(modelSyncSchema, request.body ?? {}))));
  app.get('/api/models/:id', admin, async (request) => ok(await models.get(routeId(request.params))));
  for (const url of withAndWithoutSlash('/api/models/')) {
    app.post(url, admin, async (request) => ok(await models.create(parseInput(createModelMetaSchema, request.body))));
    app.put(url, admin, async (request) =>
      ok(await models.update(parseInput(updateModelMetaSchema, request.body), booleanParameter(request.query, 'status_only'))),
    );
  }
  app.delete('/api/models/:id', admin, async (request) => {
    await models.delete(routeId(request.params));
    return ok();
  });

  for (const url of withAndWithoutSlash('/api/vendors/')) {
    app.get(url, adminList, async (request) => ok(await vendors.search('', pageFrom(request))));
    app.post(url, admin, async (request) => ok(await vendors.create(parseInput(createVendorSchema, request.body))));
    app.put(url, admin, async (request) => ok(await vendors.update(parseInput(updateVendorSchema, request.body))));
  }
  app.get('/api/vendors/search', adminList, async (request) => ok(await vendors.search(textParameter(request.query, 'keyword'), pageFrom(request))));
  app.get('/api/vendors/:id', admin, async (request) => ok(await vendors.get(routeId(request.params))));
  app.delete('/api/vendors/:id', admin, async (request) => {
    await vendors.delete(routeId(request.params));
    return ok();
  });
}
