/**
 * A channel's `setting.system_prompt`, as new-api applies it: a request without a system prompt gets
 * the channel's; a request with one keeps its own, unless `system_prompt_override` is on, which puts
 * the channel's in front of it (joined with a newline; before the first part of a list).
 */
export interface ChannelSystemPrompt {
  readonly text: string;
  readonly override: boolean;
}

/** The upstream dialects new-api applies it to: OpenAI chat `messages`, Claude Messages `system`. */
export type SystemPromptDialect = 'openai-chat' | 'claude';

type Body = Record<string, unknown>;

/** OpenAI chat: a system message first, or the channel's text in front of the first system message. */
function applyToMessages(body: Body, prompt: ChannelSystemPrompt): boolean {
  if (!Array.isArray(body.messages)) return false;
  const messages = body.messages as unknown[];
  const index = messages.findIndex((message) => (message as Body | null)?.role === 'system');
  if (index === -1) {
    body.messages = [{ role: 'system', content: prompt.text }, ...messages];
    return true;
  }
  if (!prompt.override) return false;
  const message = messages[index] as Body;
  const content = message.content;
  const merged =
    typeof content === 'string'
      ? `${prompt.text}\n${content}`
      : [{ type: 'text', text: prompt.text }, ...(Array.isArray(content) ? (content as unknown[]) : [])];
  body.messages = messages.map((entry, at) => (at === index ? { ...message, content: merged } : entry));
  return true;
}

/** Claude Messages: `system` set when absent; with override, the channel's text first (a string, or a first text block). */
function applyToClaudeSystem(body: Body, prompt: ChannelSystemPrompt): boolean {
  const system = body.system;
  if (system === undefined || system === null) {
    body.system = prompt.text;
    return true;
  }
  if (!prompt.override) return false;
  if (typeof system === 'string') {
    const existing = system.trim();
    body.system = existing ? `${prompt.text}\n${existing}` : prompt.text;
    return true;
  }
  body.system = [{ type: 'text', text: prompt.text }, ...(Array.isArray(system) ? (system as unknown[]) : [])];
  return true;
}

/** Applies the channel's system prompt to an upstream body of that dialect (edited in place); true when it changed. */
export function applySystemPrompt(body: Body, prompt: ChannelSystemPrompt, dialect: SystemPromptDialect): boolean {
  return dialect === 'claude' ? applyToClaudeSystem(body, prompt) : applyToMessages(body, prompt);
}
