import { startLocalServer } from './local-http-server.ts';

/** The usage the fake upstream reports for every answer. */
export const fakeChatUsage = { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 };

/** An OpenAI chat completion as the fake upstream answers it ("hello", `fakeChatUsage`). */
export const fakeChatCompletion = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hello' }, finish_reason: 'stop' }],
  usage: fakeChatUsage,
};

/** A local OpenAI-compatible upstream whose non-stream chat completions all answer `fakeChatCompletion`. */
export function startFakeChatUpstream(): ReturnType<typeof startLocalServer> {
  return startLocalServer({ 'POST /v1/chat/completions': () => ({ json: fakeChatCompletion }) });
}
