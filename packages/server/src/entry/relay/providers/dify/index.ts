import type { ChannelTarget, Provider, RelayRequest, UpstreamRequest } from '../../provider.ts';
import { convertChatRequest } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { chatMessagesPath, difyTransport } from './dify-transport.ts';
import { parseDifyError } from './parse-dify-error.ts';

function buildChatRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const body = convertChatRequest(request.body ?? {}, request.stream);
  const headers: Record<string, string> = { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' };
  if (request.stream) headers['accept'] = 'text/event-stream';
  return { url: `${target.baseUrl}${chatMessagesPath}`, method: 'POST', headers, body: JSON.stringify(body) };
}

/**
 * Dify (channel type 37): a Dify app's chat-messages API (chat, chatflow and agent apps) with the
 * app's API key as a bearer token and the Dify server (`https://api.dify.ai` or self-hosted) as the
 * base URL. The model name only routes to the channel: the app decides which model answers.
 * @see https://docs.dify.ai/en/openapi-api-access-readme
 */
export const difyProvider: Provider = {
  id: 'dify',
  channelTypes: [37],
  transport: difyTransport,
  chat: {
    buildRequest: buildChatRequest,
    response: { kind: 'convert', convertResponse: convertChatResponse, createStreamConverter: createChatStreamConverter },
  },
  parseError: parseDifyError,
};
