export type MessageStatus = 'loading' | 'incomplete' | 'complete' | 'error';

/** One turn of the conversation; assistant turns move loading → incomplete (streaming) → complete, or error. */
export interface ChatMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  status: MessageStatus;
}

export interface PlaygroundSettings {
  group: string;
  model: string;
  temperature: number;
  maxTokens: number;
  systemPrompt: string;
}

/** The playground's defaults, as new-api's: gpt-4o-mini, temperature 1, 8096 max tokens. */
export const defaultSettings: PlaygroundSettings = { group: '', model: 'gpt-4o-mini', temperature: 1, maxTokens: 8096, systemPrompt: '' };
