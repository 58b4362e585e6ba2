import { defaultTextMapGetter, ROOT_CONTEXT, SpanKind, type TextMapPropagator, type Tracer } from '@opentelemetry/api';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_ROUTE } from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import { RequestTrace } from './request-trace.ts';
import { switchboard } from './span-attributes.ts';

/** The console API and the relay (its entries, the playground, the task relays, the legacy billing routes); not the console's files. */
const tracedRoute = /^\/(api|v1|v1beta|pg|mj|suno|dashboard)(\/|$)/;

function isTraced(route: RouteOptions): boolean {
  // CORS preflights are answered without work: tracing them would only double the span count.
  const methods = [route.method].flat();
  return tracedRoute.test(route.url) && !(methods.length === 1 && methods[0] === 'OPTIONS');
}

/**
 * One SERVER span per request of a traced route, a child of the caller's `traceparent` when it sent
 * one. Named by the matched route pattern (`GET /api/token/:id`), never the URL, which may carry ids
 * or a key in its query. Hooks are attached to the traced routes only, as they are registered, so
 * the call must come before any route; with tracing off this is never called and no hook exists.
 */
export function traceRequests(app: FastifyInstance, tracer: Tracer, propagator: TextMapPropagator): WeakMap<FastifyRequest, RequestTrace> {
  const traces = new WeakMap<FastifyRequest, RequestTrace>();
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isTraced(route)) return;
    const pattern = route.url;
    const startSpan: onRequestHookHandler = (request, reply, done) => {
      const parent = propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
      const span = tracer.startSpan(
        `${request.method} ${pattern}`,
        {
          kind: SpanKind.SERVER,
          attributes: { [ATTR_HTTP_REQUEST_METHOD]: request.method, [ATTR_HTTP_ROUTE]: pattern, [switchboard.requestId]: request.id },
        },
        parent,
      );
      const requestTrace = new RequestTrace(tracer, propagator, span);
      traces.set(request, requestTrace);
      // 'close' comes after the last byte of an answer, hijacked streams included, and when the caller leaves.
      reply.raw.once('close', () => requestTrace.responseEnded(reply.raw));
      done();
    };
    // First, so the span also covers a refusal by the request limits' hooks.
    const existing = route.onRequest === undefined ? [] : [route.onRequest].flat();
    route.onRequest = [startSpan, ...existing];
  });
  return traces;
}
