import { openAIChatRequestSchema } from '@switchboard/contracts';
import type { ChannelTarget, ConvertedResponse, Provider, RelayRequest, UpstreamRequest } from '../../provider.ts';
import { convertChatRequest } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { parseZhipuError } from './parse-zhipu-error.ts';
import { createZhipuTransport } from './zhipu-transport.ts';

/** `{base}/api/paas/v3/model-api/{model}/invoke`, or `/sse-invoke` for a stream. */
export function zhipuModelUrl(baseUrl: string, model: string, stream: boolean): string {
  return `${baseUrl}/api/paas/v3/model-api/${encodeURIComponent(model)}/${stream ? 'sse-invoke' : 'invoke'}`;
}

function buildChatRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const parsed = openAIChatRequestSchema.safeParse({ ...request.body, model: request.upstreamModel });
  if (!parsed.success) throw new Error(`the chat request cannot be converted for ChatGLM: ${parsed.error.issues[0]?.message ?? 'invalid body'}`);
  const { body, warnings } = convertChatRequest(parsed.data, request.stream);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: request.stream ? 'text/event-stream' : 'application/json' };
  // The transport adds the signed token: it is computed (and cached) at send time.
  return { url: zhipuModelUrl(target.baseUrl, request.upstreamModel, request.stream), method: 'POST', headers, body: JSON.stringify(body), warnings };
}

const zhipuChatResponse: ConvertedResponse = {
  kind: 'convert',
  convertResponse: convertChatResponse,
  createStreamConverter: createChatStreamConverter,
};

/**
 * Zhipu ChatGLM, API v3 (channel type 16): OpenAI chat requests converted to the `model-api`
 * invoke/sse-invoke calls, signed with a token made from the `id.secret` key. v3 has no model list
 * or balance API.
 * @see https://open.bigmodel.cn/dev/api#chatglm_turbo
 */
export const zhipuProvider: Provider = {
  id: 'zhipu',
  channelTypes: [16],
  transport: createZhipuTransport(),
  chat: { buildRequest: buildChatRequest, response: zhipuChatResponse },
  parseError: parseZhipuError,
};
