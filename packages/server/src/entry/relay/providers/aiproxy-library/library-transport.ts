import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { Transport, TransportOptions, UpstreamRequest, UpstreamResponse } from '../../provider.ts';
import { httpTransport } from '../../transport/http-transport.ts';
import { libraryAnswerSchema } from './aiproxy-library-api.ts';

/**
 * Plain HTTP, except that a JSON answer saying `success: false` (which AI Proxy may send with HTTP
 * 200) becomes a failed answer, as one-api reads its `errCode`: without this the caller would get an
 * empty completion and be charged for it.
 */
export const libraryTransport: Transport = {
  async send(request: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse> {
    const response = await httpTransport.send(request, options);
    if (response.statusCode >= 400 || !String(response.headers['content-type'] ?? '').includes('json')) return response;
    const raw = await text(response.body);
    const parsed = safeParseJson(raw);
    const answer = parsed.ok ? libraryAnswerSchema.safeParse(parsed.value) : undefined;
    const refused = answer?.success === true && (answer.data.success === false || (answer.data.errCode ?? 0) !== 0);
    return { ...response, statusCode: refused ? 400 : response.statusCode, body: Readable.from([Buffer.from(raw)]) };
  },
};
