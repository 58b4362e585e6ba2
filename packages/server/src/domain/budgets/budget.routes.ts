import { alertSettingsRequestSchema, budgetRequestSchema } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { requireUser } from '../auth/authenticate.ts';
import { parseInput } from '../../core/http/listing/parse-input.ts';
import { routeId } from '../../core/http/listing/route-id.ts';
import { ok } from '../../core/http/envelope.ts';
import type { BudgetService } from './budget.service.ts';

const user = { config: { access: 'user' as const } };
const admin = { config: { access: 'admin' as const } };

/** Budgets in the console: a user's tokens and own page, and administrators on any user. */
export function registerBudgetRoutes(app: FastifyInstance, budgets: BudgetService): void {
  app.get('/api/budget/tokens', user, async (request) => ok(await budgets.tokenBudgets(requireUser(request).id)));

  app.put('/api/budget/tokens/:id', user, async (request) =>
    ok(await budgets.setTokenBudget(requireUser(request).id, routeId(request.params), parseInput(budgetRequestSchema, request.body))),
  );

  app.get('/api/budget/self', user, async (request) => ok(await budgets.selfBudget(requireUser(request).id)));

  app.put('/api/budget/self/alerts', user, async (request) => {
    await budgets.saveAlerts(requireUser(request).id, parseInput(alertSettingsRequestSchema, request.body));
    return ok();
  });

  app.get('/api/budget/users/:id', admin, async (request) => ok(await budgets.userBudget(requireUser(request), routeId(request.params))));

  app.put('/api/budget/users/:id', admin, async (request) =>
    ok(await budgets.setUserBudget(requireUser(request), routeId(request.params), parseInput(budgetRequestSchema, request.body))),
  );
}
