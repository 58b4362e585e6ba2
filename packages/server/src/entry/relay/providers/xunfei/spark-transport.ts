import { Readable } from 'node:stream';
import type { Transport, TransportOptions, UpstreamRequest, UpstreamResponse } from '../../provider.ts';
import { parseSparkKey } from './spark-key.ts';
import { signSparkUrl } from './sign-spark-url.ts';

/**
 * Sends a Spark chat request over iFlytek's WebSocket API: the URL is signed at send time (the
 * signature holds the current date), the request body is the session's first message, and the
 * answer comes back as the relay expects an HTTP answer (see SparkSession). The stream flag is the
 * request's `accept: text/event-stream`, as for every other provider. `now` is injectable for tests.
 */
export function createSparkTransport(now: () => Date = () => new Date()): Transport {
  return {
    async send(request: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse> {
      const credentials = parseSparkKey(options.target.key);
      if (!credentials) {
        const body = JSON.stringify({ message: 'the channel key must be APPID|APISecret|APIKey' });
        return { statusCode: 401, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(body)]) };
      }
      const url = signSparkUrl(request.url, credentials, now());
      const streaming = request.headers['accept'] === 'text/event-stream';
      // Loaded on the first Spark request: it brings the `ws` library, which no other HTTP provider needs.
      const { SparkSession } = await import('./spark-session.ts');
      return new SparkSession(url, String(request.body ?? ''), options, streaming).start();
    },
  };
}
