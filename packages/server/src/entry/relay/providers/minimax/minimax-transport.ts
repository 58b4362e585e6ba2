import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { Transport, TransportOptions, UpstreamRequest, UpstreamResponse } from '../../provider.ts';
import { httpTransport } from '../../transport/http-transport.ts';
import { minimaxStatusSchema } from './minimax-api.ts';
import { statusForMinimaxCode } from './parse-minimax-error.ts';

const headerText = (value: string | string[] | undefined): string => (Array.isArray(value) ? value.join(',') : (value ?? ''));

/**
 * Plain HTTP, except that MiniMax reports failures (a bad key, a rate limit, a refused prompt) with
 * HTTP 200 and a non-zero `base_resp.status_code`, also when a stream was asked for (the answer is
 * then JSON, not events). Such an answer gets the status its code stands for, so the pipeline
 * classifies, retries or disables as for any failed answer; everything else passes untouched.
 */
export const minimaxTransport: Transport = {
  async send(request: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse> {
    const response = await httpTransport.send(request, options);
    if (response.statusCode >= 400 || !headerText(response.headers['content-type']).includes('json')) return response;
    const body = await text(response.body);
    const parsed = safeParseJson(body);
    const status = parsed.ok ? minimaxStatusSchema.safeParse(parsed.value) : undefined;
    const code = status?.success ? status.data.base_resp?.status_code : undefined;
    const statusCode = typeof code === 'number' && code !== 0 ? statusForMinimaxCode(code) : response.statusCode;
    return { statusCode, headers: response.headers, body: Readable.from([Buffer.from(body)]) };
  },
};
