import { parseSseBlock, SseBlockSplitter } from '@switchboard/contracts';
import i18n from '../../../lib/i18n.ts';
import { readStoredUser } from '../../../lib/stored-user.ts';

export interface ChatRequest {
  messages: Array<{ role: 'system' | 'user' | 'assistant'; content: string }>;
  model: string;
  group: string;
  temperature: number;
  max_tokens: number;
}

interface StreamChunk {
  choices?: Array<{ delta?: { content?: string | null; reasoning_content?: string | null } }>;
  error?: { message?: string };
}

/** The relay's error body (`{error:{message}}`) or the console envelope, whichever the failure used. */
async function failureMessage(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: { message?: string }; message?: string };
    return body.error?.message || body.message || text;
  } catch {
    return text || `HTTP ${response.status}`;
  }
}

/**
 * `POST /pg/chat/completions` with `stream: true` (session auth, the user id in `New-Api-User`): calls
 * `onDelta` with each piece of the answer as it arrives, resolves when the stream ends.
 */
export async function streamChat(request: ChatRequest, onDelta: (text: string) => void, signal: AbortSignal): Promise<void> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
  const user = readStoredUser();
  if (user) headers['New-Api-User'] = String(user.id);
  const response = await fetch('/pg/chat/completions', {
    method: 'POST',
    headers,
    credentials: 'same-origin',
    signal,
    body: JSON.stringify({ ...request, stream: true }),
  });
  if (!response.ok || !response.body) throw new Error(await failureMessage(response));

  let failure: string | undefined;
  let done = false;
  const onData = (payload: string) => {
    if (payload === '[DONE]') {
      done = true;
      return;
    }
    let chunk: StreamChunk;
    try {
      chunk = JSON.parse(payload) as StreamChunk;
    } catch {
      failure = i18n.t('errors.parse', { ns: 'playground' });
      return;
    }
    if (chunk.error) failure = chunk.error.message ?? payload;
    const text = chunk.choices?.[0]?.delta?.content;
    if (text) onDelta(text);
  };
  const splitter = new SseBlockSplitter();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  while (!done) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    for (const block of splitter.push(value)) {
      const event = parseSseBlock(block);
      if (event) onData(event.data);
      if (failure || done) break;
    }
    if (failure) break;
  }
  if (done) await reader.cancel().catch(() => undefined);
  if (failure) throw new Error(failure);
}
