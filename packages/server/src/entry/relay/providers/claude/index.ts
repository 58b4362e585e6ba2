import { callerHeadersOf } from '../../pipeline/answer-format.ts';
import type { ChannelTarget, Provider, RelayRequest, UpstreamRequest } from '../../provider.ts';
import { listClaudeModels } from './claude-models.ts';
import { defaultAnthropicVersion } from './claude-api.ts';
import { claudeChatResponse, claudeRequestFromRelay } from './claude-chat.ts';
import { claudeNativeFor } from './claude-native-answer.ts';
import { parseClaudeError } from './parse-claude-error.ts';

/** The headers Anthropic's API wants: the key in `x-api-key` and a pinned API version. */
export function claudeHeaders(target: ChannelTarget, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = { 'x-api-key': target.key, 'anthropic-version': defaultAnthropicVersion, 'content-type': 'application/json' };
  if (stream) headers['accept'] = 'text/event-stream';
  return headers;
}

function buildChatRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const { body, warnings } = claudeRequestFromRelay(request);
  const headers = { ...claudeHeaders(target, request.stream), ...callerHeadersOf(request.body, 'anthropic') };
  return { url: `${target.baseUrl}/v1/messages`, method: 'POST', headers, body: JSON.stringify(body), warnings };
}

/**
 * Anthropic Claude (channel type 14): OpenAI chat requests converted to the Messages API.
 * @see https://docs.anthropic.com/en/api/messages
 */
export const claudeProvider: Provider = {
  id: 'claude',
  channelTypes: [14],
  chat: { buildRequest: buildChatRequest, response: claudeChatResponse, nativeAnswer: claudeNativeFor },
  parseError: parseClaudeError,
  listModels: listClaudeModels,
};
