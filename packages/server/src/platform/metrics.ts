import type { Registry } from 'prom-client';

/** Event-loop delay sampling interval: a stall shorter than this can go unseen. */
export const eventLoopResolutionMs = 5;

/**
 * Prometheus metrics: Node's own (CPU, memory, event-loop delay, GC) plus figures the services read
 * from their own counters when scraped, so nothing is computed per request. prom-client is loaded
 * only when metrics are on (METRICS_TOKEN set).
 */
export class Metrics {
  readonly registry: Registry;
  private readonly client: typeof import('prom-client');

  private constructor(client: typeof import('prom-client')) {
    this.client = client;
    this.registry = new client.Registry();
    client.collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: eventLoopResolutionMs });
  }

  static async create(): Promise<Metrics> {
    return new Metrics(await import('prom-client'));
  }

  /** A value that goes up and down, read when scraped. */
  gauge(name: string, help: string, read: () => number): void {
    new this.client.Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  /** One value per label set, read when scraped (label sets absent from a reading disappear from the output). */
  labelledGauge<Label extends string>(
    name: string,
    help: string,
    labelNames: readonly Label[],
    read: () => Array<{ labels: Record<Label, string>; value: number }>,
  ): void {
    new this.client.Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { labels, value } of read()) this.set(labels, value);
      },
    });
  }

  /** A running total kept by its owner, read when scraped. */
  counter(name: string, help: string, read: () => number): void {
    new this.client.Counter({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }
}
