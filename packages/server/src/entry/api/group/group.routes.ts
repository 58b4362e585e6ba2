import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../app-context.ts';
import { ok } from '../../../core/http/envelope.ts';
import { withAndWithoutSlash } from '../../../core/http/listing/route-paths.ts';
import { groupNames } from './group-names.ts';

export function registerGroupRoutes(app: FastifyInstance, context: AppContext): void {
  for (const url of withAndWithoutSlash('/api/group/')) {
    app.get(url, { config: { access: 'admin' } }, async () => ok(groupNames(context.options)));
  }
}
