import { Readable } from 'node:stream';
import {
  BedrockRuntimeClient,
  BedrockRuntimeServiceException,
  InvokeModelCommand,
  InvokeModelWithResponseStreamCommand,
  type ResponseStream,
} from '@aws-sdk/client-bedrock-runtime';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { Transport, TransportOptions, UpstreamRequest, UpstreamResponse } from '../../provider.ts';
import { parseAwsKey, type AwsCredentials } from './aws-key.ts';
import { ClientPool, type ClientLease } from './client-pool.ts';
import { SilenceWatch } from './silence-watch.ts';

/**
 * Sends Bedrock InvokeModel / InvokeModelWithResponseStream through the AWS SDK, which signs with
 * SigV4 and decodes the binary event stream. The answer is handed to the pipeline in the shape the
 * Claude converters already read: the JSON body as it is, and the stream re-framed as Anthropic's
 * server-sent events (each Bedrock chunk's bytes ARE one Anthropic stream event).
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html
 */

/** One client per endpoint and key, bounded so rotated keys do not accumulate clients forever. */
const clients = new ClientPool<BedrockRuntimeClient>(64);

function clientFor(endpoint: string, credentials: AwsCredentials, options: TransportOptions): ClientLease<BedrockRuntimeClient> {
  const cacheKey = [endpoint, credentials.region, credentials.accessKeyId, credentials.secretAccessKey, credentials.sessionToken ?? ''].join('\n');
  return clients.acquire(
    cacheKey,
    () =>
      new BedrockRuntimeClient({
        region: credentials.region,
        endpoint,
        credentials: {
          accessKeyId: credentials.accessKeyId,
          secretAccessKey: credentials.secretAccessKey,
          ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
        },
        // The pipeline retries on other channels; the SDK's own backoff would only add latency.
        maxAttempts: 1,
        // One request per HTTP/2 session, as the SDK's own default: Bedrock caps concurrent streams per session.
        requestHandler: { requestTimeout: options.bodyTimeoutMs, disableConcurrentStreams: true },
      }),
  );
}

/** Splits `{endpoint}/model/{modelId}/invoke[-with-response-stream]` back into its parts. */
export function parseInvokeUrl(url: string): { endpoint: string; modelId: string; stream: boolean } | undefined {
  const match = /^(.*)\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(url);
  if (!match?.[1] || !match[2]) return undefined;
  return { endpoint: match[1], modelId: decodeURIComponent(match[2]), stream: match[3] === 'invoke-with-response-stream' };
}

function jsonResponse(statusCode: number, body: unknown): UpstreamResponse {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(JSON.stringify(body))]) };
}

function sseFrame(event: string, data: string): Buffer {
  return Buffer.from(`event: ${event}\ndata: ${data}\n\n`);
}

function streamError(type: string, message: string): Buffer {
  return sseFrame('error', JSON.stringify({ type: 'error', error: { type, message } }));
}

async function* reframe(events: AsyncIterable<ResponseStream>, watch: SilenceWatch): AsyncGenerator<Buffer> {
  try {
    for await (const event of events) {
      watch.sawActivity();
      if (event.chunk?.bytes) {
        const data = Buffer.from(event.chunk.bytes).toString('utf8');
        const parsed = safeParseJson(data);
        const type =
          parsed.ok && parsed.value !== null && typeof parsed.value === 'object' && typeof (parsed.value as { type?: unknown }).type === 'string'
            ? (parsed.value as { type: string }).type
            : 'message';
        yield sseFrame(type, data);
        continue;
      }
      const [name, exception] = Object.entries(event).find(([, value]) => value !== undefined) ?? ['unknown', undefined];
      const message = exception !== null && typeof exception === 'object' && 'message' in exception ? String(exception.message) : name;
      yield streamError(name, message);
      return;
    }
  } catch (error) {
    if (watch.expired) throw watch.timeoutError();
    // Modelled stream exceptions surface as thrown errors; they end the stream as an error event.
    if (error instanceof Error && error.name === 'AbortError') return;
    yield streamError(error instanceof Error ? error.name : 'stream_error', error instanceof Error ? error.message : String(error));
  } finally {
    watch.stop();
  }
  // Stopped for silence, the stream may just end: it must not pass for a complete answer.
  if (watch.expired) throw watch.timeoutError();
}

export const bedrockTransport: Transport = {
  async send(request: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse> {
    const credentials = parseAwsKey(options.target.key);
    if (!credentials)
      return jsonResponse(401, { __type: 'UnrecognizedClientException', message: 'the channel key must be AccessKeyId|SecretAccessKey|Region' });
    const invoke = parseInvokeUrl(request.url);
    if (!invoke) return jsonResponse(400, { __type: 'ValidationException', message: `not a Bedrock invoke URL: ${request.url}` });
    const lease = clientFor(invoke.endpoint, credentials, options);
    const input = { modelId: invoke.modelId, body: Buffer.from(request.body ?? ''), contentType: 'application/json', accept: 'application/json' };
    let streaming = false;
    try {
      if (!invoke.stream) {
        const output = await lease.client.send(new InvokeModelCommand(input), { abortSignal: options.signal });
        return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(output.body ?? new Uint8Array())]) };
      }
      // STREAMING_TIMEOUT is the watch's: the SDK's own timeout (0 turns it off) would end a silent stream as if complete.
      const watch = new SilenceWatch(options.signal, options.headersTimeoutMs, options.bodyTimeoutMs);
      const output = await lease.client
        .send(new InvokeModelWithResponseStreamCommand(input), { abortSignal: watch.signal, requestTimeout: 0 })
        .catch((error: unknown) => {
          watch.stop();
          throw watch.expired ? watch.timeoutError() : error;
        });
      if (!output.body) {
        watch.stop();
        return jsonResponse(502, { __type: 'InternalServerException', message: 'Bedrock answered a stream without a body' });
      }
      watch.answered();
      const body = Readable.from(reframe(output.body, watch));
      // The client stays in use until the stream is read to its end or dropped.
      body.once('close', lease.release);
      body.once('close', () => watch.stop());
      streaming = true;
      return { statusCode: 200, headers: { 'content-type': 'text/event-stream' }, body };
    } catch (error) {
      if (error instanceof BedrockRuntimeServiceException) {
        return jsonResponse(error.$metadata.httpStatusCode ?? 500, { __type: error.name, message: error.message });
      }
      throw error;
    } finally {
      if (!streaming) lease.release();
    }
  },
};
