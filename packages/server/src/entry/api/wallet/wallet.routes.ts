import type { FastifyInstance } from 'fastify';
import { type PaymentFormAnswer, wholeNumber } from '@switchboard/contracts';
import { z } from 'zod';
import { requireUser } from '../../../domain/auth/authenticate.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { ok } from '../../../core/http/envelope.ts';
import { pageFrom } from '../../../core/http/listing/page-query.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import type { OnlineTopUpService } from './online-topup.service.ts';
import type { RedeemService } from './redeem.service.ts';
import { buildTopUpInfo } from './topup-info.ts';

const user = { config: { access: 'user' as const } };
/** A JSON number, as the console sends it; the service bounds it. */
const amount = wholeNumber;
const amountSchema = z.object({ amount, top_up_code: z.string().nullish() });
const paySchema = amountSchema.extend({ payment_method: z.string().nullish() });

/**
 * The notify's fields as text: a repeated field gives its first value, anything else that is not text
 * (a JSON body's numbers, objects or arrays nested 100,000 deep) gives '' and so fails the signature,
 * never reaching a String() that would recurse through it.
 */
function flatParameters(source: unknown): Record<string, string> {
  const entries = Object.entries(source && typeof source === 'object' ? source : {});
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return Object.fromEntries(entries.map(([name, value]) => [name, Array.isArray(value) ? text(value[0]) : text(value)]));
}

/** What the wallet routes call, built once by wallet-module.ts. */
export interface WalletRouteServices {
  readonly redeem: RedeemService;
  readonly online: OnlineTopUpService;
  readonly options: OptionStore;
}

/** The wallet: redeeming codes, what online top-up offers, top-up through Epay, and the caller's top-up orders. */
export async function registerWalletRoutes(app: FastifyInstance, { redeem, online, options }: WalletRouteServices): Promise<void> {
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
    return { ...ok(form.fields, 'success'), url: form.url } satisfies PaymentFormAnswer;
  });
  app.get('/api/user/topup/info', user, async () => ok(buildTopUpInfo(options)));
  app.get('/api/user/topup/self', { config: { access: 'user', paging: 'from-zero' } }, async (request) => {
    const page = pageFrom(request);
    return ok(await online.topUps(requireUser(request), page.offset, page.pageSize));
  });

  // The gateway calls back with GET or with a urlencoded POST; the parser stays inside this scope.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const notify = async (parameters: Record<string, string>) => ((await online.handleNotify(parameters)) ? 'success' : 'fail');
    scope.get('/api/user/epay/notify', { config: { access: 'public' } }, async (request, reply) =>
      reply.type('text/plain').send(await notify(flatParameters(request.query))),
    );
    scope.post('/api/user/epay/notify', { config: { access: 'public' } }, async (request, reply) =>
      reply.type('text/plain').send(await notify(flatParameters(request.body))),
    );
  });
}
