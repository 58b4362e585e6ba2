import type { OpenAIContentPart, OpenAIMessage } from '@switchboard/contracts';
import { pendingUploadField, type DifyChatRequest, type DifyFile } from './dify-api.ts';

/** The user Dify files conversations and uploads under when the caller names none. */
export const defaultDifyUser = 'switchboard';

const rolePrefixes: Readonly<Record<string, string>> = { system: 'SYSTEM', developer: 'SYSTEM', assistant: 'ASSISTANT' };

function imageFile(part: OpenAIContentPart): DifyFile | undefined {
  if (part.type !== 'image_url' || !part.image_url) return undefined;
  const url = typeof part.image_url === 'string' ? part.image_url : part.image_url.url;
  if (!url) return undefined;
  if (url.startsWith('data:')) return { type: 'image', transfer_mode: 'local_file', [pendingUploadField]: url };
  return { type: 'image', transfer_mode: 'remote_url', url };
}

function textOf(content: OpenAIMessage['content']): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  return content
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

/**
 * OpenAI chat request → Dify chat-messages request.
 *
 * A Dify app keeps its own conversations; an OpenAI caller sends the whole conversation each time.
 * So, as new-api does, a new Dify conversation gets the conversation as a transcript in `query`
 * (`SYSTEM:` / `USER:` / `ASSISTANT:` sections) unless the caller sent one user message only, which
 * goes as it is. A caller that continues a Dify conversation (`conversation_id` in the body) sends
 * only its last user message: Dify has the rest. Images become Dify files: remote URLs by reference,
 * inline images uploaded first (see dify-transport.ts). `inputs` (the app's variables) pass through.
 * @see https://docs.dify.ai/en/openapi-api-access-readme
 */
export function convertChatRequest(body: Record<string, unknown>, stream: boolean): DifyChatRequest {
  const messages = Array.isArray(body.messages) ? (body.messages as OpenAIMessage[]) : [];
  const conversationId = typeof body.conversation_id === 'string' && body.conversation_id ? body.conversation_id : undefined;
  const files: DifyFile[] = [];
  for (const message of messages) {
    if (message.role !== 'user' || !Array.isArray(message.content)) continue;
    for (const part of message.content) {
      const file = imageFile(part);
      if (file) files.push(file);
    }
  }
  const lastUser = messages.findLast((message) => message.role === 'user');
  const onlyUserTurn = messages.length === 1 && lastUser !== undefined;
  const query =
    conversationId || onlyUserTurn
      ? textOf(lastUser?.content)
      : messages.map((message) => `${rolePrefixes[message.role] ?? 'USER'}: \n${textOf(message.content)}\n`).join('');
  const request: DifyChatRequest = {
    inputs: body.inputs !== null && typeof body.inputs === 'object' && !Array.isArray(body.inputs) ? (body.inputs as Record<string, unknown>) : {},
    query,
    response_mode: stream ? 'streaming' : 'blocking',
    user: typeof body.user === 'string' && body.user ? body.user : defaultDifyUser,
    auto_generate_name: false,
    files,
  };
  if (conversationId) request.conversation_id = conversationId;
  return request;
}
