/** OpenAI chat-completions wire payloads, built once per request from fixed parts. */

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export function usageOf(prompt: number, completion: number): Usage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

export function completionBody(id: string, model: string, usage: Usage): string {
  return JSON.stringify({
    id,
    object: 'chat.completion',
    created: 1_760_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hello! How can I help you today?' }, logprobs: null, finish_reason: 'stop' }],
    usage,
    system_fingerprint: 'fp_bench',
  });
}

/** One SSE frame of a content delta; `index` keeps every chunk distinct so a lost one is visible. */
export function deltaFrame(id: string, model: string, index: number): string {
  return `data: {"id":"${id}","object":"chat.completion.chunk","created":1760000000,"model":"${model}","system_fingerprint":"fp_bench","choices":[{"index":0,"delta":{"content":"t${index} "},"logprobs":null,"finish_reason":null}]}\n\n`;
}

/** The last frame: finish reason plus usage (what `stream_options.include_usage` produces, merged). */
export function finalFrame(id: string, model: string, usage: Usage): string {
  return `data: {"id":"${id}","object":"chat.completion.chunk","created":1760000000,"model":"${model}","system_fingerprint":"fp_bench","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":${JSON.stringify(usage)}}\n\ndata: [DONE]\n\n`;
}

export function errorBody(message: string, type: string, code: string): string {
  return JSON.stringify({ error: { message, type, param: null, code } });
}
