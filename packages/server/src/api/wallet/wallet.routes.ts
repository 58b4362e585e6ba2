import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../app-context.ts';
import { requireUser } from '../../auth/authenticate.ts';
import { ok } from '../../http/envelope.ts';
import { FailureLimiter } from '../../http/rate-limit.ts';
import { createMemoryExpiringStore, createRedisExpiringStore } from '../../platform/expiring-store.ts';
import { zeroBasedPage } from '../listing/page-query.ts';
import { parseInput } from '../listing/parse-input.ts';
import { OnlineTopUpService } from './online-topup.service.ts';
import { RedeemService } from './redeem.service.ts';
import { WalletRepository } from './wallet.repository.ts';

const user = { config: { access: 'user' as const } };
const amount = z.preprocess((value) => (typeof value === 'string' ? Number(value) : value), z.number());
const amountSchema = z.object({ amount, top_up_code: z.string().nullish() });
const paySchema = amountSchema.extend({ payment_method: z.string().nullish() });
/** Unknown redemption codes a user (or an address) may try before being told to wait. */
export const redeemFailureLimits = { perUsername: 10, perIp: 30, windowSeconds: 15 * 60 };

function flatParameters(source: unknown): Record<string, string> {
  const entries = Object.entries(source && typeof source === 'object' ? source : {});
  return Object.fromEntries(entries.map(([name, value]) => [name, Array.isArray(value) ? String(value[0] ?? '') : String(value ?? '')]));
}

/** The wallet: redeeming codes, online top-up through Epay, and the caller's top-up orders. */
export async function registerWalletRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const repository = new WalletRepository(context.database.db);
  const store = context.redis ? createRedisExpiringStore(context.redis) : createMemoryExpiringStore(context.clock);
  const redeem = new RedeemService(repository, context, new FailureLimiter(store, 'redeem', redeemFailureLimits));
  const online = new OnlineTopUpService(repository, context);

  app.post('/api/user/topup', user, async (request) => {
    const body = parseInput(z.object({ key: z.string().nullish() }), request.body);
    return ok(await redeem.redeem(requireUser(request), body.key ?? '', request.ip));
  });
  app.post('/api/user/amount', user, async (request) => {
    const body = parseInput(amountSchema, request.body);
    return ok(await online.quote(requireUser(request), body.amount), 'success');
  });
  app.post('/api/user/pay', user, async (request) => {
    const body = parseInput(paySchema, request.body);
    const form = await online.startPayment(requireUser(request), body.amount, body.payment_method ?? '');
    // The classic console posts `data` as a hidden form to `url`.
    return { ...ok(form.fields, 'success'), url: form.url };
  });
  app.get('/api/user/topup/self', user, async (request) => {
    const page = zeroBasedPage(request.query as Record<string, unknown>);
    return ok(await repository.listTopUps(requireUser(request).id, page.offset, page.limit));
  });

  // The gateway calls back with GET or with a urlencoded POST; the parser stays inside this scope.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))));
    const notify = async (parameters: Record<string, string>) => ((await online.handleNotify(parameters)) ? 'success' : 'fail');
    scope.get('/api/user/epay/notify', { config: { access: 'public' } }, async (request, reply) => reply.type('text/plain').send(await notify(flatParameters(request.query))));
    scope.post('/api/user/epay/notify', { config: { access: 'public' } }, async (request, reply) => reply.type('text/plain').send(await notify(flatParameters(request.body))));
  });
}
