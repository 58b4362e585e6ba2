import { openAIChatRequestSchema } from '@switchboard/contracts';
import type { ChannelTarget, ConvertedResponse, Provider, RelayRequest, UpstreamRequest } from '../../provider.ts';
import { convertChatRequest } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { parseSparkError } from './parse-spark-error.ts';
import { parseSparkKey } from './spark-key.ts';
import { createSparkTransport } from './spark-transport.ts';
import { resolveSparkVersion, sparkChatUrl } from './spark-version.ts';

function buildChatRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const parsed = openAIChatRequestSchema.safeParse({ ...request.body, model: request.upstreamModel });
  if (!parsed.success) throw new Error(`the chat request cannot be converted for iFlytek Spark: ${parsed.error.issues[0]?.message ?? 'invalid body'}`);
  const version = resolveSparkVersion(request.upstreamModel, target.other);
  const { body, warnings } = convertChatRequest(parsed.data, parseSparkKey(target.key)?.appId ?? '', version);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (request.stream) headers['accept'] = 'text/event-stream';
  // The WebSocket upgrade is a GET; the body is the session's first message.
  return { url: sparkChatUrl(target.baseUrl, version), method: 'GET', headers, body: JSON.stringify(body), warnings };
}

const sparkChatResponse: ConvertedResponse = {
  kind: 'convert',
  convertResponse: convertChatResponse,
  createStreamConverter: createChatStreamConverter,
};

/**
 * iFlytek Spark (channel type 18): OpenAI chat requests over Spark's WebSocket API, the key as
 * `APPID|APISecret|APIKey`, the model version from the model name (`SparkDesk-v3.5`) or the
 * channel's extra field. Spark has no model-list or balance API.
 * @see https://www.xfyun.cn/doc/spark/Web.html
 */
export const xunfeiProvider: Provider = {
  id: 'xunfei',
  channelTypes: [18],
  transport: createSparkTransport(),
  chat: { buildRequest: buildChatRequest, response: sparkChatResponse },
  parseError: parseSparkError,
};
