import type { ChannelTarget, Provider, RelayRequest, UpstreamRequest } from '../../provider.ts';
import { convertChatRequest, convertChatResponse, createChatStreamConverter } from './convert-chat.ts';
import { libraryTransport } from './library-transport.ts';
import { parseLibraryError } from './parse-library-error.ts';

function buildChatRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const body = convertChatRequest(request.body ?? {}, request.upstreamModel, target.other.trim(), request.stream);
  const headers: Record<string, string> = { authorization: `Bearer ${target.key}`, 'content-type': 'application/json' };
  if (request.stream) headers['accept'] = 'text/event-stream';
  return { url: `${target.baseUrl}/api/library/ask`, method: 'POST', headers, body: JSON.stringify(body) };
}

/**
 * AI Proxy knowledge base (channel type 21): a question to one of the account's knowledge bases
 * (`POST /api/library/ask`, the base's id in the channel's knowledge-base field), answered through
 * the OpenAI chat endpoint with the documents listed after the answer, as one-api and new-api do.
 * @see https://docs.aiproxy.io/dev/library
 */
export const aiproxyLibraryProvider: Provider = {
  id: 'aiproxy-library',
  channelTypes: [21],
  transport: libraryTransport,
  chat: {
    buildRequest: buildChatRequest,
    response: { kind: 'convert', convertResponse: convertChatResponse, createStreamConverter: createChatStreamConverter },
  },
  parseError: parseLibraryError,
};
