import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const tracing = (env: Record<string, string>) => loadConfig(env).tracing;
const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return { variable: error.variable, message: error.message };
  }
  return undefined;
};

describe('tracing configuration (the OpenTelemetry SDK variables)', () => {
  it('is off unless an endpoint or an exporter is named, and when told none or disabled', () => {
    expect(tracing({})).toBeUndefined();
    expect(tracing({ OTEL_SERVICE_NAME: 'gateway', OTEL_TRACES_SAMPLER: 'always_on' })).toBeUndefined();
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
  });

  it("appends the signal path to the general endpoint, takes the traces endpoint as it is, and defaults to the SDK's", () => {
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toMatchObject({
      exporters: ['otlp'],
      endpoint: 'http://collector:4318/v1/traces',
    });
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://b/custom/path' })?.endpoint).toBe(
      'https://b/custom/path',
    );
    expect(tracing({ OTEL_TRACES_EXPORTER: 'otlp' })?.endpoint).toBe('http://localhost:4318/v1/traces');
    expect(tracing({ OTEL_TRACES_EXPORTER: 'console' })?.exporters).toEqual(['console']);
  });

  it('reads the standard defaults and the resource, headers, sampler and batch settings', () => {
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toMatchObject({
      serviceName: 'switchboard',
      resourceAttributes: { 'service.name': 'switchboard' },
      headers: {},
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
      compression: 'none',
      timeoutMillis: 10_000,
      batch: { scheduledDelayMillis: 5000, exportTimeoutMillis: 30_000, maxQueueSize: 2048, maxExportBatchSize: 512 },
    });
    expect(
      tracing({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-resource,deployment.environment.name=prod%20eu',
        OTEL_EXPORTER_OTLP_HEADERS: 'api-key=general,x-team=ops',
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'api-key=traces%3Dkey',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_EXPORTER_OTLP_COMPRESSION: 'gzip',
        OTEL_BSP_SCHEDULE_DELAY: '200',
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '100',
      }),
    ).toMatchObject({
      serviceName: 'from-resource',
      resourceAttributes: { 'service.name': 'from-resource', 'deployment.environment.name': 'prod eu' },
      headers: { 'api-key': 'traces=key', 'x-team': 'ops' },
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.25,
      compression: 'gzip',
      batch: { scheduledDelayMillis: 200, maxExportBatchSize: 100 },
    });
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_RESOURCE_ATTRIBUTES: 'service.name=x', OTEL_SERVICE_NAME: 'named' })).toMatchObject({
      serviceName: 'named',
      resourceAttributes: { 'service.name': 'named' },
    });
  });

  it('refuses bad values naming the variable, without echoing a header', () => {
    const on = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(refusal({ ...on, OTEL_TRACES_SAMPLER: 'sometimes' })?.variable).toBe('OTEL_TRACES_SAMPLER');
    expect(refusal({ ...on, OTEL_TRACES_SAMPLER_ARG: '2' })?.variable).toBe('OTEL_TRACES_SAMPLER_ARG');
    expect(refusal({ ...on, OTEL_TRACES_EXPORTER: 'zipkin' })?.variable).toBe('OTEL_TRACES_EXPORTER');
    expect(refusal({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })?.variable).toBe('OTEL_EXPORTER_OTLP_ENDPOINT');
    expect(refusal({ ...on, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })?.message).toContain('4318');
    expect(refusal({ ...on, OTEL_BSP_MAX_QUEUE_SIZE: '10', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '20' })?.variable).toBe('OTEL_BSP_MAX_EXPORT_BATCH_SIZE');
    expect(refusal({ ...on, OTEL_BSP_SCHEDULE_DELAY: 'soon' })?.variable).toBe('OTEL_BSP_SCHEDULE_DELAY');
    const badHeader = refusal({ ...on, OTEL_EXPORTER_OTLP_HEADERS: 'api-key=%E0%A4%A' });
    expect(badHeader?.variable).toBe('OTEL_EXPORTER_OTLP_HEADERS');
    expect(badHeader?.message).not.toContain('%E0%A4%A');
  });
});
