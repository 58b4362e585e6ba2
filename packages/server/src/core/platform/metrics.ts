import cluster from 'node:cluster';
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

  /** In a worker of several, asks the primary for the machine's figures (passed in by app.ts: platform/ does not know the cluster link). */
  private readonly machineFigures: (() => Promise<string>) | undefined;

  private constructor(client: typeof import('prom-client'), machineFigures: (() => Promise<string>) | undefined) {
    this.client = client;
    this.machineFigures = machineFigures;
    this.registry = new client.Registry();
    client.collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: eventLoopResolutionMs });
    if (cluster.isWorker) {
      // A worker of several (WORKERS) answers the primary's collection with this registry (prom-client's cluster protocol).
      new client.AggregatorRegistry();
      client.AggregatorRegistry.setRegistries([this.registry]);
    }
  }

  /**
   * The text a scrape gets. A worker of several asks the primary, which adds up every worker's
   * figures (a scraper reaches one worker at random, and half the counts would make its rates wrong).
   */
  async render(): Promise<string> {
    return this.machineFigures ? this.machineFigures() : this.registry.metrics();
  }

  static async create(machineFigures?: () => Promise<string>): Promise<Metrics> {
    return new Metrics(await import('prom-client'), machineFigures);
  }

  /**
   * A value that goes up and down, read when scraped. `across` says how the workers' values of one
   * machine combine (a 1/0 health value takes the lowest: healthy only when every worker is).
   */
  gauge(name: string, help: string, read: () => number, across: 'sum' | 'min' = 'sum'): void {
    new this.client.Gauge({
      name,
      help,
      aggregator: across,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  /**
   * One value per label set, read when scraped (label sets absent from a reading disappear from the
   * output). `across` says how the workers' values of one machine combine (a state takes the highest).
   */
  labelledGauge<Label extends string>(
    name: string,
    help: string,
    labelNames: readonly Label[],
    read: () => Array<{ labels: Record<Label, string>; value: number }>,
    across: 'sum' | 'max' = 'sum',
  ): void {
    new this.client.Gauge({
      name,
      help,
      labelNames,
      aggregator: across,
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
