import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../platform/metrics.ts';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * GET /metrics in Prometheus' text format, for a scraper holding METRICS_TOKEN as its bearer token.
 * With no token configured the endpoint is off: counts of requests and balances are nobody's business
 * by default.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics | undefined, token: string): void {
  app.get('/metrics', async (request, reply) => {
    if (!metrics) return reply.status(404).send({ success: false, message: 'Metrics are off: set METRICS_TOKEN to turn them on' });
    const authorization = request.headers.authorization ?? '';
    if (!authorization.startsWith('Bearer ') || !sameSecret(authorization.slice('Bearer '.length), token)) {
      return reply.status(401).header('www-authenticate', 'Bearer').send({ success: false, message: 'A valid metrics token is required' });
    }
    return reply.header('content-type', metrics.registry.contentType).send(await metrics.render());
  });
}
