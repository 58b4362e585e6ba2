import { Agent, errors } from 'undici';
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
export const httpTransport: Transport = {
  async send(upstream: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse> {
    const target = upstreamTarget(upstream.url);
    if (!target) throw new errors.InvalidArgumentError('Invalid URL protocol: the URL must start with `http:` or `https:`.');
    const response = await sharedAgent.request({
      origin: target.origin,
      path: target.path,
      method: upstream.method,
      headers: upstream.headers,
      body: upstream.body,
      signal: options.signal,
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
    });
    return { statusCode: response.statusCode, headers: response.headers, body: response.body };
  },

  sendWhole(upstream: UpstreamRequest, options: TransportOptions, limits: AnswerLimits): Promise<WholeUpstreamAnswer> {
    const target = upstreamTarget(upstream.url);
    if (!target) return Promise.reject(new errors.InvalidArgumentError('Invalid URL protocol: the URL must start with `http:` or `https:`.'));
    return dispatchForWholeAnswer(
      sharedAgent,
      {
        origin: target.origin,
        path: target.path,
        method: upstream.method,
        headers: upstream.headers,
        body: upstream.body,
        headersTimeout: options.headersTimeoutMs,
        bodyTimeout: options.bodyTimeoutMs,
      },
      options.signal,
      limits,
    );
  },
};
