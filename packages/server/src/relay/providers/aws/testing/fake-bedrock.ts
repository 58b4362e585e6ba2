import { crc32 } from 'node:zlib';
import { parseSseText, readJsonFixture, readStreamFixture } from '../../claude/testing/fixtures.ts';
import { sendJson, startFakeServer, type FakeResponse, type FakeServer } from '../../claude/testing/fake-server.ts';

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
 * Each Anthropic stream event becomes one `chunk` event whose `bytes` carry the event JSON.
 * `failAfter` sends a modelled exception message after that many chunks, as Bedrock does when
 * throttled mid-stream.
 */
function streamClaudeEvents(response: FakeResponse, fixture: string, failAfter?: number): void {
  response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-bedrock-content-type': 'application/json' });
  let sent = 0;
  for (const event of parseSseText(readStreamFixture(claudeFixtures, fixture))) {
    if (event.event === 'ping') continue;
    if (sent++ === failAfter) {
      const payload = Buffer.from(JSON.stringify({ message: 'Too many tokens, please wait before trying again.' }));
      response.write(encodeEventStreamMessage({ ':exception-type': 'throttlingException', ':content-type': 'application/json', ':message-type': 'exception' }, payload));
      break;
    }
    const payload = Buffer.from(JSON.stringify({ bytes: Buffer.from(event.data).toString('base64'), p: 'abcdefgh' }));
    response.write(encodeEventStreamMessage({ ':event-type': 'chunk', ':content-type': 'application/json', ':message-type': 'event' }, payload));
  }
  response.end();
}

function awsError(response: FakeResponse, status: number, type: string, message: string): void {
  sendJson(response, status, { message }, { 'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` });
}

/**
 * Bedrock Runtime on 127.0.0.1: InvokeModel and InvokeModelWithResponseStream with SigV4
 * `Authorization`, Claude bodies in, Claude answers out (the stream as binary event-stream).
 * Records the signed credential scope of each request.
 */
export function startFakeBedrock(): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    const match = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/.exec(request.path);
    if (request.method !== 'POST' || !match) return awsError(response, 404, 'UnknownOperationException', 'Unknown operation');
    const authorization = String(request.headers.authorization ?? '');
    const credential = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/\d{8}\/([^/]+)\/bedrock\/aws4_request, SignedHeaders=[^,]+, Signature=[0-9a-f]{64}$/.exec(authorization);
    if (!credential || credential[1] === undefined) return awsError(response, 403, 'IncompleteSignatureException', 'Authorization header requires a SigV4 signature.');
    if (credential[1] === fakeBedrockAccessKeys.throttled) return awsError(response, 429, 'ThrottlingException', 'Too many requests, please wait before trying again.');
    if (credential[1] !== fakeBedrockAccessKeys.good && credential[1] !== fakeBedrockAccessKeys.failsMidStream) return awsError(response, 403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
    if (request.body?.anthropic_version !== 'bedrock-2023-05-31') return awsError(response, 400, 'ValidationException', 'Malformed input request: anthropic_version is required');
    const withTools = Array.isArray(request.body.tools) && request.body.tools.length > 0;
    if (match[2] === 'invoke-with-response-stream') return streamClaudeEvents(response, withTools ? 'messages-tool-use.chunks.txt' : 'messages-text.chunks.txt', credential[1] === fakeBedrockAccessKeys.failsMidStream ? 3 : undefined);
    sendJson(response, 200, readJsonFixture(claudeFixtures, withTools ? 'messages-tool-use.json' : 'messages-text.json'));
  }, { http2: true });
}
