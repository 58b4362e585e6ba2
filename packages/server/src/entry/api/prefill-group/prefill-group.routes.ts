import { createPrefillGroupSchema, updatePrefillGroupSchema } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../../core/http/envelope.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import { textParameter } from '../../../core/http/listing/query-parameters.ts';
import { routeId } from '../../../core/http/listing/route-id.ts';
import { withAndWithoutSlash } from '../../../core/http/listing/route-paths.ts';
import type { PrefillGroupService } from './prefill-group.service.ts';

const admin = { config: { access: 'admin' as const } };

/** `/api/prefill_group`: administrators only, as in new-api; `GET ?type=` filters by type. */
export function registerPrefillGroupRoutes(app: FastifyInstance, service: PrefillGroupService): void {
  for (const url of withAndWithoutSlash('/api/prefill_group/')) {
    app.get(url, admin, async (request) => ok(await service.list(textParameter(request.query, 'type'))));
    app.post(url, admin, async (request) => ok(await service.create(parseInput(createPrefillGroupSchema, request.body))));
    app.put(url, admin, async (request) => ok(await service.update(parseInput(updatePrefillGroupSchema, request.body))));
  }
  app.delete('/api/prefill_group/:id', admin, async (request) => {
    await service.delete(routeId(request.params));
    return ok();
  });
}
