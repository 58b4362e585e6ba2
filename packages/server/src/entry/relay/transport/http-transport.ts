import { Agent, type Dispatcher, errors } from 'undici';
import type { AnswerLimits, Transport, TransportOptions, UpstreamRequest, UpstreamResponse, WholeUpstreamAnswer } from '../provider.ts';
import { upstreamTarget } from './upstream-target.ts';
import { dispatchForWholeAnswer } from './whole-answer-dispatch.ts';

/**
 * The shared upstream pool. No cap on connections per origin: a capped pool turned 1,000 concurrent
 * streams into +3 s of queueing in the measurements, and the vendors, not us, are
 * the ones to push back on concurrency.
 */
const sharedAgent = new Agent({ connections: null, keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000, pipelining: 1 });

/**
 * Plain HTTP(S) with undici and Node streams: no fetch, no web streams on the relay path. A whole
 * answer is collected off undici's dispatch callbacks, without a response stream (`sendWhole`). The pool is
 * asked directly with the URL's origin and path (`upstreamTarget`): undici's top-level `request` parses
 * the URL text again on every call.
 */
/** One upstream request as undici's pool takes it; throws, as undici would, on a URL that is not http or https. */
function dispatchOptions(upstream: UpstreamRequest, options: TransportOptions): Dispatcher.DispatchOptions {
  const target = upstreamTarget(upstream.url);
  if (!target) throw new errors.InvalidArgumentError('Invalid URL protocol: the URL must start with `http:` or `https:`.');
  return {
    origin: target.origin,
    path: target.path,
    method: upstream.method,
    headers: upstream.headers,
    body: upstream.body,
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
  };
}

export const httpTransport: Transport = {
  async send(upstream: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse> {
    const response = await sharedAgent.request({ ...dispatchOptions(upstream, options), signal: options.signal });
    return { statusCode: response.statusCode, headers: response.headers, body: response.body };
  },

  async sendWhole(upstream: UpstreamRequest, options: TransportOptions, limits: AnswerLimits): Promise<WholeUpstreamAnswer> {
    return dispatchForWholeAnswer(sharedAgent, dispatchOptions(upstream, options), options.signal, limits);
  },
};
