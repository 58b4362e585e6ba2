import { crc32 } from 'node:zlib';
import { parseSseText } from '@switchboard/contracts';
import { readJsonFixture, readStreamFixture } from '../../claude/testing/fixtures.ts';
import { sendJson, startFakeServer, type FakeResponse, type FakeServer } from '../../claude/testing/fake-server.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);
const claudeFixtures = new URL('../../claude/__fixtures__/', import.meta.url);

/** Access key ids the fake knows; any other is refused as AWS does. */
export const fakeBedrockAccessKeys = { good: 'AKIAFAKEGOOD', throttled: 'AKIAFAKETHROTTLED', failsMidStream: 'AKIAFAKEMIDSTREAM' } as const;

function header(name: string, value: string): Buffer {
  const nameBytes = Buffer.from(name);
  const valueBytes = Buffer.from(value);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(valueBytes.length);
  // Header value type 7 is a string.
  return Buffer.concat([Buffer.from([nameBytes.length]), nameBytes, Buffer.from([7]), length, valueBytes]);
}

/**
 * One message of the AWS event-stream encoding: total and header lengths, the prelude's CRC32,
 * the headers, the payload, the whole message's CRC32.
 * @see https://docs.aws.amazon.com/AmazonS3/latest/API/RESTSelectObjectAppendix.html (the same framing)
 */
export function encodeEventStreamMessage(headers: Record<string, string>, payload: Buffer): Buffer {
  const headerBytes = Buffer.concat(Object.entries(headers).map(([name, value]) => header(name, value)));
  const prelude = Buffer.alloc(8);
  prelude.writeUInt32BE(12 + headerBytes.length + payload.length + 4, 0);
  prelude.writeUInt32BE(headerBytes.length, 4);
  const preludeCrc = Buffer.alloc(4);
  preludeCrc.writeUInt32BE(crc32(prelude));
  const withoutCrc = Buffer.concat([prelude, preludeCrc, headerBytes, payload]);
  const messageCrc = Buffer.alloc(4);
  messageCrc.writeUInt32BE(crc32(withoutCrc));
  return Buffer.concat([withoutCrc, messageCrc]);
}

/**
 * The Anthropic events of one answer, as the `bytes` of Bedrock's chunks carry them: Bedrock's own
 * recording for a text turn (its `message_stop` adds `amazon-bedrock-invocationMetrics`), and for a
 * tool-use turn Anthropic's recording, which Bedrock passes through unchanged (without pings).
 */
function chunkPayloads(withTools: boolean): string[] {
  if (withTools)
    return parseSseText(readStreamFixture(claudeFixtures, 'messages-tool-use.chunks.txt'))
      .filter((event) => event.event !== 'ping')
      .map((event) => event.data);
  return readStreamFixture(fixtures, 'invoke-with-response-stream-text.chunks.jsonl')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/**
 * Each Anthropic stream event becomes one `chunk` event whose `bytes` carry the event JSON.
 * `failAfter` sends a modelled exception message after that many chunks, as Bedrock does when
 * throttled mid-stream.
 */
async function streamClaudeEvents(response: FakeResponse, withTools: boolean, failAfter: number | undefined, held: Promise<void> | undefined): Promise<void> {
  response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-bedrock-content-type': 'application/json' });
  let sent = 0;
  for (const data of chunkPayloads(withTools)) {
    // A held stream stops after its first event, so many can be in flight at once.
    if (sent === 1 && held) await held;
    if (sent++ === failAfter) {
      const payload = Buffer.from(JSON.stringify(readJsonFixture(fixtures, 'stream-exception-throttling.json')));
      response.write(
        encodeEventStreamMessage({ ':exception-type': 'throttlingException', ':content-type': 'application/json', ':message-type': 'exception' }, payload),
      );
      break;
    }
    const payload = Buffer.from(JSON.stringify({ bytes: Buffer.from(data).toString('base64'), p: 'abcdefgh' }));
    response.write(encodeEventStreamMessage({ ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' }, payload));
  }
  response.end();
}

/**
 * Bedrock's documented errors (REST-JSON protocol): the body is `{"message"}` and the exception
 * name travels in `x-amzn-ErrorType`, as the AWS SDK reads it.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html#API_runtime_InvokeModel_Errors
 */
const bedrockErrors = {
  unrecognizedClient: { status: 403, type: 'UnrecognizedClientException', fixture: 'error-unrecognized-client.json' },
  throttling: { status: 429, type: 'ThrottlingException', fixture: 'error-throttling.json' },
  validation: { status: 400, type: 'ValidationException', fixture: 'error-validation.json' },
  incompleteSignature: { status: 403, type: 'IncompleteSignatureException', fixture: 'error-incomplete-signature.json' },
} as const;

/** A recorded Bedrock error body with its status, as the relay's tests read it too. */
export function bedrockErrorBody(name: keyof typeof bedrockErrors): { status: number; type: string; body: unknown } {
  const error = bedrockErrors[name];
  return { status: error.status, type: error.type, body: readJsonFixture(fixtures, error.fixture) };
}

function awsError(response: FakeResponse, name: keyof typeof bedrockErrors): void {
  const { status, type, body } = bedrockErrorBody(name);
  sendJson(response, status, body, { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` });
}

export interface FakeBedrock extends FakeServer {
  /** Streams started from now on send their first event, then wait until `release`. */
  holdStreams(): { release: () => void };
}

/**
 * Bedrock Runtime on 127.0.0.1: InvokeModel and InvokeModelWithResponseStream with SigV4
 * `Authorization`, Claude bodies in, Claude answers out (the stream as binary event-stream).
 * Records the signed credential scope of each request.
 */
export async function startFakeBedrock(): Promise<FakeBedrock> {
  let held: Promise<void> | undefined;
  const server = await startFakeServer(
    (request, response) => {
      const match = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(request.path);
      // An unknown operation is the one answer not worth a fixture: the SDK never calls one.
      if (request.method !== 'POST' || !match)
        return sendJson(response, 404, { message: 'Unknown operation' }, { 'x-amzn-errortype': 'UnknownOperationException' });
      const authorization = String(request.headers.authorization ?? '');
      const credential = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/([^/]+)\/bedrock\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/.exec(
        authorization,
      );
      if (!credential || credential[1] === undefined) return awsError(response, 'incompleteSignature');
      if (credential[1] === fakeBedrockAccessKeys.throttled) return awsError(response, 'throttling');
      if (credential[1] !== fakeBedrockAccessKeys.good && credential[1] !== fakeBedrockAccessKeys.failsMidStream)
        return awsError(response, 'unrecognizedClient');
      if (request.body?.anthropic_version !== 'bedrock-2023-05-31') return awsError(response, 'validation');
      const withTools = Array.isArray(request.body.tools) && request.body.tools.length > 0;
      if (match[2] === 'invoke-with-response-stream')
        return streamClaudeEvents(response, withTools, credential[1] === fakeBedrockAccessKeys.failsMidStream ? 3 : undefined, held);
      sendJson(response, 200, withTools ? readJsonFixture(claudeFixtures, 'messages-tool-use.json') : readJsonFixture(fixtures, 'invoke-model-text.json'));
    },
    { http2: true },
  );
  return {
    ...server,
    holdStreams() {
      const gate = Promise.withResolvers<void>();
      held = gate.promise;
      return {
        release: () => {
          held = undefined;
          gate.resolve();
        },
      };
    },
  };
}
