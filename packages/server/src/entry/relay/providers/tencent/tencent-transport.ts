import { Readable } from 'node:stream';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { Transport, TransportOptions, UpstreamRequest, UpstreamResponse } from '../../provider.ts';
import { httpTransport } from '../../transport/http-transport.ts';
import { tencentErrorCode, tencentErrorStatus } from './parse-tencent-error.ts';
import { signTc3 } from './tc3-signature.ts';

/** The channel key `AppId|SecretId|SecretKey` (the AppId is not part of API 3.0 calls). */
export interface TencentKey {
  readonly appId: string;
  readonly secretId: string;
  readonly secretKey: string;
}

export function parseTencentKey(key: string): TencentKey | undefined {
  const parts = key.split('|').map((part) => part.trim());
  if (parts.length !== 3 || !parts[0] || !parts[1] || !parts[2]) return undefined;
  return { appId: parts[0], secretId: parts[1], secretKey: parts[2] };
}

/** The credential scope's service: the product's name, whatever host the channel points at. */
const service = 'hunyuan';

function jsonResponse(statusCode: number, body: Buffer | object): UpstreamResponse {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  return { statusCode, headers: { 'content-type': 'application/json' }, body: Readable.from([bytes]) };
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/**
 * Tencent answers errors with HTTP 200 and `Response.Error` (also to a streamed request, as JSON).
 * A JSON answer is read here and, when it is an error, given the status its code means; an event
 * stream goes through untouched.
 */
async function checkAnswer(response: UpstreamResponse): Promise<UpstreamResponse> {
  const contentType = String(response.headers['content-type'] ?? '');
  if (response.statusCode !== 200 || !contentType.includes('json')) return response;
  const raw = await readAll(response.body);
  const parsed = safeParseJson(raw.toString('utf8'));
  const code = parsed.ok ? tencentErrorCode(parsed.value) : undefined;
  return code === undefined ? { ...response, body: Readable.from([raw]) } : jsonResponse(tencentErrorStatus(code), raw);
}

/**
 * Signs each request with TC3-HMAC-SHA256 at send time (the timestamp must be within five minutes
 * of Tencent's clock), over the content type, host and action headers and the exact body sent.
 * `now` gives Unix seconds; tests pass their own clock.
 */
export function createTencentTransport(now: () => number = () => Math.floor(Date.now() / 1000)): Transport {
  return {
    async send(request: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse> {
      const key = parseTencentKey(options.target.key);
      if (!key)
        return jsonResponse(401, { Response: { Error: { Code: 'AuthFailure.InvalidSecretId', Message: 'the channel key must be AppId|SecretId|SecretKey' } } });
      const timestamp = now();
      const contentType = request.headers['content-type'] ?? 'application/json';
      const action = request.headers['X-TC-Action'] ?? '';
      const { authorization } = signTc3({
        secretId: key.secretId,
        secretKey: key.secretKey,
        service,
        timestamp,
        method: 'POST',
        headers: { 'content-type': contentType, host: new URL(request.url).host, 'x-tc-action': action },
        payload: request.body ?? '',
      });
      const signed = { ...request, headers: { ...request.headers, Authorization: authorization, 'X-TC-Timestamp': String(timestamp) } };
      return checkAnswer(await httpTransport.send(signed, options));
    },
  };
}
