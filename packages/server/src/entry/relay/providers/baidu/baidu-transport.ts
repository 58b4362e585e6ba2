import { Readable } from 'node:stream';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { Transport, TransportOptions, UpstreamRequest, UpstreamResponse } from '../../provider.ts';
import { httpTransport } from '../../transport/http-transport.ts';
import { BaiduAccessTokens, parseBaiduKey, TokenExchangeError, type BaiduKey } from './access-token.ts';
import { baiduErrorCode, baiduErrorCodes, baiduErrorStatus } from './parse-baidu-error.ts';

function jsonResponse(statusCode: number, body: Buffer | string | object): UpstreamResponse {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return { statusCode, headers: { 'content-type': 'application/json' }, body: Readable.from([bytes]) };
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/** An answer as the pipeline should see it, and the Baidu error code when it was one. */
interface CheckedAnswer {
  readonly response: UpstreamResponse;
  readonly errorCode?: number;
}

/**
 * Baidu answers errors with HTTP 200 and a JSON body (also to a streamed request). A JSON answer is
 * read here and, when it carries `error_code`, given the status that code means; an event stream
 * goes through untouched.
 */
async function checkAnswer(response: UpstreamResponse): Promise<CheckedAnswer> {
  const contentType = String(response.headers['content-type'] ?? '');
  if (response.statusCode !== 200 || !contentType.includes('json')) return { response };
  const raw = await readAll(response.body);
  const parsed = safeParseJson(raw.toString('utf8'));
  const errorCode = parsed.ok ? baiduErrorCode(parsed.value) : undefined;
  if (errorCode === undefined) return { response: { ...response, body: Readable.from([raw]) } };
  return { response: jsonResponse(baiduErrorStatus(errorCode), raw), errorCode };
}

function withToken(request: UpstreamRequest, token: string): UpstreamRequest {
  const separator = request.url.includes('?') ? '&' : '?';
  return { ...request, url: `${request.url}${separator}access_token=${encodeURIComponent(token)}` };
}

/**
 * Plain HTTP with the channel's OAuth access token in the query string. A token Baidu calls invalid
 * or expired (110, 111) is dropped and fetched again, and the call sent once more; a key Baidu's
 * token endpoint refuses answers as a 401, so the channel can be auto-disabled.
 */
export function createBaiduTransport(tokens: BaiduAccessTokens = new BaiduAccessTokens()): Transport {
  const tokenFor = async (baseUrl: string, key: BaiduKey, signal: AbortSignal): Promise<string | UpstreamResponse> => {
    try {
      return await tokens.accessToken(baseUrl, key, signal);
    } catch (error) {
      if (error instanceof TokenExchangeError) return jsonResponse(error.status, error.body);
      throw error;
    }
  };
  return {
    async send(request: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse> {
      const key = parseBaiduKey(options.target.key);
      if (!key) return jsonResponse(401, { error: 'invalid_client', error_description: 'the channel key must be APIKey|SecretKey' });
      const baseUrl = options.target.baseUrl;
      let token = await tokenFor(baseUrl, key, options.signal);
      if (typeof token !== 'string') return token;
      const first = await checkAnswer(await httpTransport.send(withToken(request, token), options));
      if (first.errorCode === undefined || !baiduErrorCodes.staleToken.has(first.errorCode)) return first.response;
      tokens.forget(baseUrl, key, token);
      token = await tokenFor(baseUrl, key, options.signal);
      if (typeof token !== 'string') return token;
      return (await checkAnswer(await httpTransport.send(withToken(request, token), options))).response;
    },
  };
}
