import type { OpenAIMessage } from '@switchboard/contracts';
import type { ChannelTarget } from '../../provider.ts';
import type { CozeAdditionalMessage, CozeChatRequest } from './coze-api.ts';

/** The user Coze files the chat under when the caller names none. */
export const defaultCozeUser = 'switchboard';

/**
 * The bot to talk to: the channel's bot id (the `other` field, as new-api reads it), else the model
 * name, with one-api's `bot-` prefix removed (`bot-7342866812345` → `7342866812345`).
 */
export function cozeBotId(target: ChannelTarget, upstreamModel: string): string {
  return target.other.trim() || upstreamModel.replace(/^bot-/, '');
}

function convertMessage(message: OpenAIMessage, warnings: string[]): CozeAdditionalMessage | undefined {
  const role = message.role === 'assistant' ? 'assistant' : 'user';
  const type = role === 'assistant' ? 'answer' : 'question';
  const content = message.content;
  if (content === undefined || content === null) return undefined;
  if (typeof content === 'string') return content ? { role, type, content, content_type: 'text' } : undefined;
  // Text and remote images go as one multimodal `object_string` message; inline images would need an upload first.
  const parts: { type: 'text' | 'image'; text?: string; file_url?: string }[] = [];
  for (const part of content) {
    if (part.type === 'text' && part.text) parts.push({ type: 'text', text: part.text });
    else if (part.type === 'image_url' && part.image_url) {
      const url = typeof part.image_url === 'string' ? part.image_url : part.image_url.url;
      if (url && !url.startsWith('data:')) parts.push({ type: 'image', file_url: url });
      else warnings.push('inline image dropped: Coze takes images by URL');
    }
  }
  if (parts.length === 0) return undefined;
  if (parts.every((part) => part.type === 'text')) return { role, type, content: parts.map((part) => part.text).join('\n'), content_type: 'text' };
  return { role, type, content: JSON.stringify(parts), content_type: 'object_string' };
}

/**
 * OpenAI chat request → Coze v3 chat request. The conversation goes as `additional_messages` (user
 * questions and assistant answers; new-api sent the user turns only); system prompts are dropped
 * because a bot's persona is set in Coze. Each call starts a new Coze conversation.
 * @see https://www.coze.com/open/docs/developer_guides/chat_v3
 */
export function convertChatRequest(body: Record<string, unknown>, botId: string, stream: boolean): { body: CozeChatRequest; warnings: string[] } {
  const warnings: string[] = [];
  const additional: CozeAdditionalMessage[] = [];
  for (const message of Array.isArray(body.messages) ? (body.messages as OpenAIMessage[]) : []) {
    if (message.role === 'system' || message.role === 'developer') {
      warnings.push('system prompt ignored: a Coze bot has its own persona');
      continue;
    }
    if (message.role !== 'user' && message.role !== 'assistant') continue;
    const converted = convertMessage(message, warnings);
    if (converted) additional.push(converted);
  }
  const user = typeof body.user === 'string' && body.user ? body.user : defaultCozeUser;
  return { body: { bot_id: botId, user_id: user, stream, additional_messages: additional }, warnings };
}
