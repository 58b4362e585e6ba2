import type { FastifyInstance } from 'fastify';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { ok } from '../../../core/http/envelope.ts';
import { withAndWithoutSlash } from '../../../core/http/listing/route-paths.ts';
import { groupNames } from './group-names.ts';

/** What the group list reads: the group ratios in the options. */
export interface GroupRoutesDependencies {
  readonly options: OptionStore;
}

export function registerGroupRoutes(app: FastifyInstance, context: GroupRoutesDependencies): void {
  for (const url of withAndWithoutSlash('/api/group/')) {
    app.get(url, { config: { access: 'admin' } }, async () => ok(groupNames(context.options)));
  }
}
