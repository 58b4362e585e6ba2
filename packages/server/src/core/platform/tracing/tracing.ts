import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TracingConfig } from '../../config/tracing-config.ts';
import type { Logger } from '../logger.ts';
import type { RequestTrace } from './request-trace.ts';

/**
 * OpenTelemetry tracing of the console API and the relay. Present in the app context only when
 * configured (config.tracing): with tracing off nothing here is loaded, no hook is registered and
 * the relay's call sites see `undefined`.
 */
export interface Tracing {
  /** The trace of a relay request, for the pipeline to enrich (undefined for a route that is not traced). */
  relay(request: FastifyRequest): RequestTrace | undefined;
  /** Exports what is queued now (tests, and shutdown). */
  flush(): Promise<void>;
  /** Exports what is queued and stops the exporter: call last on shutdown. */
  shutdown(): Promise<void>;
}

/**
 * Loads the SDK (only now: its modules cost start-up time and memory that a gateway without tracing
 * should not pay) and attaches the request spans to the routes registered from now on.
 */
export async function openTracing(app: FastifyInstance, config: TracingConfig, logger: Logger, version: string): Promise<Tracing> {
  const { startTracing } = await import('./tracing-runtime.ts');
  return startTracing(app, config, logger, version);
}
