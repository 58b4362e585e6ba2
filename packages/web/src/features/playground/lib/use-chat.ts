import { useCallback, useRef, useState } from 'react';
import { streamChat } from '../api/stream-chat.ts';
import type { ChatMessage, PlaygroundSettings } from './chat-types.ts';

let nextId = 0;
const newId = () => `m${(nextId += 1)}`;

/** The conversation: sends the history with the settings, streams the answer into the last message. */
export function useChat(settings: PlaygroundSettings) {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const abort = useRef<AbortController | null>(null);
  const busy = messages.some((message) => message.status === 'loading' || message.status === 'incomplete');

  const update = (id: string, change: (message: ChatMessage) => ChatMessage) =>
    setMessages((current) => current.map((message) => (message.id === id ? change(message) : message)));

  const send = useCallback(
    async (text: string) => {
      const question: ChatMessage = { id: newId(), role: 'user', content: text, status: 'complete' };
      const answer: ChatMessage = { id: newId(), role: 'assistant', content: '', status: 'loading' };
      const history = [...messages.filter((message) => message.status === 'complete'), question];
      setMessages((current) => [...current, question, answer]);
      const controller = new AbortController();
      abort.current = controller;
      try {
        await streamChat(
          {
            messages: [
              ...(settings.systemPrompt.trim() ? [{ role: 'system' as const, content: settings.systemPrompt.trim() }] : []),
              ...history.map(({ role, content }) => ({ role, content })),
            ],
            model: settings.model,
            group: settings.group,
            temperature: settings.temperature,
            max_tokens: settings.maxTokens,
          },
          (delta) => update(answer.id, (message) => ({ ...message, content: message.content + delta, status: 'incomplete' })),
          controller.signal,
        );
        update(answer.id, (message) => ({ ...message, status: 'complete' }));
      } catch (error) {
        if ((error as Error).name === 'AbortError') update(answer.id, (message) => ({ ...message, status: message.content ? 'complete' : 'error' }));
        else
          update(answer.id, (message) => ({
            ...message,
            content: message.content ? `${message.content}\n\n${(error as Error).message}` : (error as Error).message,
            status: 'error',
          }));
      } finally {
        abort.current = null;
      }
    },
    [messages, settings],
  );

  const stop = useCallback(() => abort.current?.abort(), []);
  const clear = useCallback(() => {
    abort.current?.abort();
    setMessages([]);
  }, []);

  return { messages, busy, send, stop, clear };
}
