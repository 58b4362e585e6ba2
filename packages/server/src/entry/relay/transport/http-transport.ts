import { Agent, request } from 'undici';
import type { Transport, TransportOptions, UpstreamRequest, UpstreamResponse } from '../provider.ts';

/**
 * The shared upstream pool. No cap on connections per origin: a capped pool turned 1,000 concurrent
 * streams into +3 s of queueing in the measurements, and the vendors, not us, are
 * the ones to push back on concurrency.
 */
const sharedAgent = new Agent({ connections: null, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000, pipelining: 1 });

/** Plain HTTP(S) with undici `request` and Node streams: no fetch, no web streams on the relay path. */
export const httpTransport: Transport = {
  async send(upstream: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse> {
    const response = await request(upstream.url, {
      method: upstream.method,
      headers: upstream.headers,
      body: upstream.body,
      dispatcher: sharedAgent,
      signal: options.signal,
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
    });
    return { statusCode: response.statusCode, headers: response.headers, body: response.body };
  },
};
