import { z } from 'zod';

/**
 * OpenTelemetry tracing, read from the SDK's standard environment variables
 * (@see https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/).
 * Off unless an OTLP endpoint is named or OTEL_TRACES_EXPORTER asks for an exporter: a gateway
 * that nobody collects traces from pays nothing for them.
 */
export interface TracingConfig {
  /** Where spans go: `otlp` (OTLP/HTTP, JSON) and/or `console` (stdout, for a quick look). */
  readonly exporters: ReadonlyArray<'otlp' | 'console'>;
  /** The full traces URL (`…/v1/traces`). */
  readonly endpoint: string;
  /** Sent with every export (a collector's API key): a secret, never logged. */
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMillis: number;
  readonly compression: 'gzip' | 'none';
  readonly serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES, with service.name set from OTEL_SERVICE_NAME. */
  readonly resourceAttributes: Readonly<Record<string, string>>;
  readonly sampler: TraceSampler;
  /** Between 0 and 1: the share of new traces kept by the `traceidratio` samplers. */
  readonly samplerRatio: number;
  readonly batch: {
    readonly scheduledDelayMillis: number;
    readonly exportTimeoutMillis: number;
    readonly maxQueueSize: number;
    readonly maxExportBatchSize: number;
  };
}

export type TraceSampler = 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';

type Env = Record<string, string | undefined>;
type Fail = (variable: string, detail: string) => never;

const samplers = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
const defaultBaseEndpoint = 'http://localhost:4318';
const url = z.url({ protocol: /^https?$/ });

function value(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

/** `key=value,key2=value2` with percent-encoded values (the W3C baggage octets the spec names). */
function keyValueList(env: Env, name: string, fail: Fail): Record<string, string> {
  const raw = value(env, name);
  const result: Record<string, string> = {};
  if (!raw) return result;
  for (const entry of raw.split(',')) {
    if (!entry.trim()) continue;
    const equals = entry.indexOf('=');
    const key = equals < 0 ? '' : entry.slice(0, equals).trim();
    if (!key) fail(name, 'must be a comma-separated list of key=value pairs');
    try {
      result[key] = decodeURIComponent(entry.slice(equals + 1).trim());
    } catch {
      fail(name, `has a value for "${key}" that is not valid percent-encoding`);
    }
  }
  return result;
}

function wholeNumber(env: Env, name: string, fallback: number, fail: Fail, minimum = 0): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  const parsed = Number(raw);
  if (!Number.isInteger(parsed) || parsed < minimum) fail(name, `must be a whole number of at least ${minimum}, got "${raw}"`);
  return parsed;
}

/** The signal-specific variable when set, else the general one (OTEL_EXPORTER_OTLP_TRACES_X over OTEL_EXPORTER_OTLP_X). */
function otlpName(env: Env, suffix: string): string {
  const specific = `OTEL_EXPORTER_OTLP_TRACES_${suffix}`;
  return value(env, specific) === undefined ? `OTEL_EXPORTER_OTLP_${suffix}` : specific;
}

function exportersOf(env: Env, fail: Fail): TracingConfig['exporters'] {
  const raw = value(env, 'OTEL_TRACES_EXPORTER');
  const endpointNamed = value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') !== undefined || value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') !== undefined;
  if (raw === undefined) return endpointNamed ? ['otlp'] : [];
  const names = raw
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  if (names.includes('none')) return [];
  for (const name of names) {
    if (name !== 'otlp' && name !== 'console') fail('OTEL_TRACES_EXPORTER', `must be otlp, console or none, got "${name}"`);
  }
  return [...new Set(names as Array<'otlp' | 'console'>)];
}

function endpointOf(env: Env, fail: Fail): string {
  const specific = value(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (specific !== undefined) {
    if (!url.safeParse(specific).success) fail('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', `must be an http(s) URL, got "${specific}"`);
    return specific;
  }
  const base = value(env, 'OTEL_EXPORTER_OTLP_ENDPOINT') ?? defaultBaseEndpoint;
  if (!url.safeParse(base).success) fail('OTEL_EXPORTER_OTLP_ENDPOINT', `must be an http(s) URL, got "${base}"`);
  // The general endpoint is the collector's root: the signal's path is appended (the spec's rule).
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

function protocolCheck(env: Env, fail: Fail): void {
  const name = otlpName(env, 'PROTOCOL');
  const protocol = value(env, name);
  // Collectors take JSON and protobuf on the same OTLP/HTTP port, so http/protobuf still reaches them.
  if (protocol !== undefined && protocol !== 'http/json' && protocol !== 'http/protobuf') {
    fail(name, `must be http/json or http/protobuf (traces are sent as OTLP/HTTP JSON; use the collector's HTTP port, 4318), got "${protocol}"`);
  }
}

function samplerOf(env: Env, fail: Fail): { sampler: TraceSampler; ratio: number } {
  const raw = value(env, 'OTEL_TRACES_SAMPLER')?.toLowerCase() ?? 'parentbased_always_on';
  if (!(samplers as readonly string[]).includes(raw)) fail('OTEL_TRACES_SAMPLER', `must be one of ${samplers.join(', ')}, got "${raw}"`);
  const argument = value(env, 'OTEL_TRACES_SAMPLER_ARG');
  const ratio = argument === undefined ? 1 : Number(argument);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1) fail('OTEL_TRACES_SAMPLER_ARG', `must be a number from 0 to 1, got "${argument}"`);
  return { sampler: raw as TraceSampler, ratio };
}

/** Undefined when tracing is off (no exporter asked for, OTEL_TRACES_EXPORTER=none, or OTEL_SDK_DISABLED=true). */
export function loadTracingConfig(env: Env, fail: Fail): TracingConfig | undefined {
  if (value(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  const exporters = exportersOf(env, fail);
  if (exporters.length === 0) return undefined;
  protocolCheck(env, fail);
  const compressionName = otlpName(env, 'COMPRESSION');
  const compression = value(env, compressionName) ?? 'none';
  if (compression !== 'gzip' && compression !== 'none') fail(compressionName, `must be gzip or none, got "${compression}"`);
  const resourceAttributes = keyValueList(env, 'OTEL_RESOURCE_ATTRIBUTES', fail);
  const serviceName = value(env, 'OTEL_SERVICE_NAME') ?? resourceAttributes['service.name'] ?? 'switchboard';
  const { sampler, ratio } = samplerOf(env, fail);
  const maxQueueSize = wholeNumber(env, 'OTEL_BSP_MAX_QUEUE_SIZE', 2048, fail, 1);
  const maxExportBatchSize = wholeNumber(env, 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512, fail, 1);
  if (maxExportBatchSize > maxQueueSize) fail('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', `must not exceed OTEL_BSP_MAX_QUEUE_SIZE (${maxQueueSize})`);
  return {
    exporters,
    endpoint: endpointOf(env, fail),
    headers: { ...keyValueList(env, 'OTEL_EXPORTER_OTLP_HEADERS', fail), ...keyValueList(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS', fail) },
    timeoutMillis: wholeNumber(env, otlpName(env, 'TIMEOUT'), 10_000, fail, 1),
    compression,
    serviceName,
    resourceAttributes: { ...resourceAttributes, 'service.name': serviceName },
    sampler,
    samplerRatio: ratio,
    batch: {
      scheduledDelayMillis: wholeNumber(env, 'OTEL_BSP_SCHEDULE_DELAY', 5000, fail),
      exportTimeoutMillis: wholeNumber(env, 'OTEL_BSP_EXPORT_TIMEOUT', 30_000, fail, 1),
      maxQueueSize,
      maxExportBatchSize,
    },
  };
}
