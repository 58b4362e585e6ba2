// autocannon ships no types; this declares the slice of its programmatic API the bench uses.
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: string;
    body?: string | Buffer;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    /** Stop after this many requests instead of after `duration`. */
    amount?: number;
    timeout?: number;
    pipelining?: number;
    overallRate?: number;
    excludeErrorStats?: boolean;
    /** Requests sent in turn; one with setupRequest is rebuilt (that function called) before every send. */
    requests?: Array<{ setupRequest?: (request: { headers?: Record<string, string>; body?: string }) => object }>;
  }
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }
  interface Result {
    requests: Histogram & { sent: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    '2xx': number;
  }
  interface Instance extends Promise<Result> {
    stop(): void;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
