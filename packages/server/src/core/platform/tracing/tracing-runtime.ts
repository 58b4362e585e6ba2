import { setGlobalErrorHandler, W3CTraceContextPropagator } from '@opentelemetry/core';
import type { FastifyInstance } from 'fastify';
import type { TracingConfig } from '../../config/tracing-config.ts';
import type { Logger } from '../logger.ts';
import { traceRequests } from './request-spans.ts';
import { createTracerProvider } from './tracer-provider.ts';
import type { Tracing } from './tracing.ts';

/** A collector that is down fails every batch: one warning a minute is enough to notice it. */
const exportWarningIntervalMs = 60_000;

/** The SDK's export failures, logged (throttled) instead of vanishing into its default no-op diagnostics. */
function logExportFailures(logger: Logger): void {
  let lastWarning = 0;
  setGlobalErrorHandler((error) => {
    const now = Date.now();
    if (now - lastWarning < exportWarningIntervalMs) return;
    lastWarning = now;
    logger.warn({ err: error }, 'OpenTelemetry: exporting traces failed');
  });
}

export function startTracing(app: FastifyInstance, config: TracingConfig, logger: Logger, version: string): Tracing {
  const provider = createTracerProvider(config, version);
  const tracer = provider.getTracer('switchboard', version);
  const traces = traceRequests(app, tracer, new W3CTraceContextPropagator());
  logExportFailures(logger);
  // The collector's origin only: credentials written into the URL stay out of the log.
  const collector = config.exporters.includes('otlp') ? URL.parse(config.endpoint)?.origin : undefined;
  logger.info({ collector, exporters: config.exporters, sampler: config.sampler }, 'OpenTelemetry tracing is on');
  return {
    relay: (request) => traces.get(request),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
