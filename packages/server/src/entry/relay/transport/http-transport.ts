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

/** What undici says of a URL that is not http or https; the relay classifies it as undici's own error. */
function invalidProtocol(): Error {
  return new errors.InvalidArgumentError('Invalid URL protocol: the URL must start with `http:` or `https:`.');
}

/** One upstream request as undici's pool takes it; undefined for a URL that is not http or https. */
function dispatchOptions(upstream: UpstreamRequest, options: TransportOptions): Dispatcher.DispatchOptions | undefined {
  const target = upstreamTarget(upstream.url);
  if (!target) return undefined;
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

/**
 * Plain HTTP(S) with undici and Node streams: no fetch, no web streams on the relay path. A whole
 * answer is collected off undici's dispatch callbacks, without a response stream (`sendWhole`). The pool is
 * asked directly with the URL's origin and path (`upstreamTarget`): undici's top-level `request` parses
 * the URL text again on every call.
 */
export const httpTransport: Transport = {
  async send(upstream: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse> {
    const request: Dispatcher.RequestOptions | undefined = dispatchOptions(upstream, options);
    if (!request) throw invalidProtocol();
    request.signal = options.signal;
    const response = await sharedAgent.request(request);
    return { statusCode: response.statusCode, headers: response.headers, body: response.body };
  },

  // Not async: the collector's promise is the answer's, with no second promise around it per request.
  sendWhole(upstream: UpstreamRequest, options: TransportOptions, limits: AnswerLimits): Promise<WholeUpstreamAnswer> {
    const request = dispatchOptions(upstream, options);
    if (!request) return Promise.reject(invalidProtocol());
    return dispatchForWholeAnswer(sharedAgent, request, options.signal, limits);
  },
};
