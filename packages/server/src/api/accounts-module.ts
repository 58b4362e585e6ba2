import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.ts';

/** Accounts, logins, user management and settings (spec: accounts-and-settings.md). */
export async function registerAccountRoutes(_app: FastifyInstance, _context: AppContext): Promise<void> {}
