import type { ChannelTarget, Provider, RelayRequest, UpstreamRequest } from '../../provider.ts';
import { convertChatRequest, cozeBotId } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { createCozeTransport } from './coze-transport.ts';
import { parseCozeError } from './parse-coze-error.ts';

function buildChatRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const { body, warnings } = convertChatRequest(request.body ?? {}, cozeBotId(target, request.upstreamModel), request.stream);
  const headers: Record<string, string> = { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' };
  if (request.stream) headers['accept'] = 'text/event-stream';
  return { url: `${target.baseUrl}/v3/chat`, method: 'POST', headers, body: JSON.stringify(body), warnings };
}

/**
 * Coze (channel type 49): a published bot's chat API v3 with a personal access token as the bearer
 * key; `https://api.coze.cn` or `https://api.coze.com` as the base URL. The bot is the channel's bot
 * id, else the model name (see cozeBotId).
 * @see https://www.coze.com/open/docs/developer_guides/chat_v3
 */
export const cozeProvider: Provider = {
  id: 'coze',
  channelTypes: [49],
  transport: createCozeTransport(),
  chat: {
    buildRequest: buildChatRequest,
    response: { kind: 'convert', convertResponse: convertChatResponse, createStreamConverter: createChatStreamConverter },
  },
  parseError: parseCozeError,
};
