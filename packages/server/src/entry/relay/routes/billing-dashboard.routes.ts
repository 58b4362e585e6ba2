import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateToken } from '../pipeline/caller-auth.ts';
import { readRelayKey } from '../pipeline/relay-key.ts';
import type { RelayServices } from '../relay-services.ts';
import { answerRelay } from './relay.routes.ts';
import { matchedRoute } from '../../../core/http/matched-route.ts';

/**
 * OpenAI's legacy billing endpoints, which chat front ends call to show a key's balance. With
 * DisplayTokenStatEnabled the key's own budget is shown, otherwise the owner's wallet; an unlimited
 * key shows the wallet too.
 */
export function registerBillingDashboardRoutes(app: FastifyInstance, services: RelayServices): void {
  // Where the key is read from depends on the matched route, never on the URL text as sent.
  const amounts = async (request: FastifyRequest) => {
    const caller = await authenticateToken(
      readRelayKey(request.headers, matchedRoute(request).url ?? '', request.query as Record<string, unknown>),
      request.ip,
      {
        tokens: services.tokens,
        keyGuesses: services.keyGuesses,
        users: services.users,
        options: services.options,
        nowSeconds: services.clock.unixSeconds(),
      },
    );
    const perUnit = services.options.getNumber('QuotaPerUnit');
    const token = caller.token;
    const useToken = token !== undefined && !token.unlimited && services.options.getBoolean('DisplayTokenStatEnabled');
    const remaining = useToken ? token.remainQuota : caller.user.quota;
    const used = useToken ? token.usedQuota : caller.user.usedQuota;
    return { total: (remaining + used) / perUnit, used: used / perUnit, expires: token && token.expiredTime > 0 ? token.expiredTime : 0 };
  };

  for (const prefix of ['/v1/dashboard/billing', '/dashboard/billing']) {
    app.get(`${prefix}/subscription`, async (request, reply) => {
      await answerRelay(request, reply, async () => {
        const { total, expires } = await amounts(request);
        reply.send({
          object: 'billing_subscription',
          has_payment_method: true,
          soft_limit_usd: total,
          hard_limit_usd: total,
          system_hard_limit_usd: total,
          access_until: expires,
        });
      });
      return reply;
    });
    app.get(`${prefix}/usage`, async (request, reply) => {
      await answerRelay(request, reply, async () => {
        const { used } = await amounts(request);
        reply.send({ object: 'list', total_usage: used * 100 });
      });
      return reply;
    });
  }
}
