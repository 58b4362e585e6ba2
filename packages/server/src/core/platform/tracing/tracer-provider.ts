import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { TracingConfig } from '../../config/tracing-config.ts';

function samplerFor(config: TracingConfig): Sampler {
  const ratio = () => new TraceIdRatioBasedSampler(config.samplerRatio);
  switch (config.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * The SDK wired from our parsed configuration, every option explicit: the SDK's own environment
 * reading is not relied on (only config/ reads the environment), and a test passes its receiver's
 * address without touching process.env. Spans leave in batches from a timer, off the request path.
 */
export function createTracerProvider(config: TracingConfig, version: string): TracerProvider {
  const spanProcessors: SpanProcessor[] = [];
  if (config.exporters.includes('otlp')) {
    const exporter = new OTLPTraceExporter({
      url: config.endpoint,
      headers: { ...config.headers },
      timeoutMillis: config.timeoutMillis,
      compression: config.compression as CompressionAlgorithm,
    });
    spanProcessors.push(new BatchSpanProcessor({ exporter, ...config.batch }));
  }
  if (config.exporters.includes('console')) spanProcessors.push(new BatchSpanProcessor({ exporter: new ConsoleSpanExporter(), ...config.batch }));
  return new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_VERSION]: version, ...config.resourceAttributes }),
    sampler: samplerFor(config),
    spanProcessors,
  });
}
