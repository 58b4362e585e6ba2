import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.ts';

/** Channels, tokens, codes, wallet, logs, pricing and dashboard data (spec: gateway-operations.md). */
export async function registerOperationsRoutes(_app: FastifyInstance, _context: AppContext): Promise<void> {}
