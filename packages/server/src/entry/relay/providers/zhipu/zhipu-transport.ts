import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { Transport, TransportOptions, UpstreamRequest, UpstreamResponse } from '../../provider.ts';
import { httpTransport } from '../../transport/http-transport.ts';
import { statusForZhipuCode } from './parse-zhipu-error.ts';
import { reframeZhipuStream } from './reframe-zhipu-stream.ts';
import { zhipuResponseSchema } from './zhipu-api.ts';
import { parseZhipuKey, ZhipuTokens } from './zhipu-token.ts';

function jsonResponse(statusCode: number, body: string): UpstreamResponse {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(body)]) };
}

const headerText = (value: string | string[] | undefined): string => (Array.isArray(value) ? value.join(',') : (value ?? ''));

/**
 * A JSON answer: a failure reported with HTTP 200 and `success: false` gets the status its code
 * stands for, so the pipeline classifies, retries or disables as for any failed answer.
 */
async function checkedJsonAnswer(response: UpstreamResponse): Promise<UpstreamResponse> {
  const body = await text(response.body);
  const parsed = safeParseJson(body);
  const answer = parsed.ok ? zhipuResponseSchema.safeParse(parsed.value) : undefined;
  const failed = answer?.success && answer.data.success === false;
  const statusCode = failed ? statusForZhipuCode(answer.data.code) : response.statusCode;
  return { statusCode, headers: response.headers, body: Readable.from([Buffer.from(body)]) };
}

/**
 * Plain HTTP with the self-signed token in `Authorization`; a key that is not `id.secret` answers
 * as Zhipu's own authentication failure, so the channel can be auto-disabled. Successful streams
 * are re-framed for the converter (see reframe-zhipu-stream.ts).
 */
export function createZhipuTransport(tokens: ZhipuTokens = new ZhipuTokens()): Transport {
  return {
    async send(request: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse> {
      const key = parseZhipuKey(options.target.key);
      if (!key) return jsonResponse(401, JSON.stringify({ code: 1000, msg: 'the channel key must be id.secret', success: false }));
      const signed = { ...request, headers: { ...request.headers, authorization: tokens.tokenFor(key) } };
      const response = await httpTransport.send(signed, options);
      if (response.statusCode >= 400) return response;
      const contentType = headerText(response.headers['content-type']);
      if (contentType.includes('text/event-stream')) return { ...response, body: Readable.from(reframeZhipuStream(response.body)) };
      if (contentType.includes('json')) return checkedJsonAnswer(response);
      return response;
    },
  };
}
