import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.ts';

/** The relay: /v1, /v1beta, /pg and the legacy billing routes. */
export async function registerRelayRoutes(_app: FastifyInstance, _context: AppContext): Promise<void> {}
