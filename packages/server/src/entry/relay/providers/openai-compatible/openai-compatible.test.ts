import { describe, expect, it } from 'vitest';
import type { ChannelTarget, RelayRequest } from '../../provider.ts';
import { customProvider } from '../custom/index.ts';
import { openaiProvider } from '../openai/index.ts';
import { zhipuV4Provider } from '../zhipu-v4/index.ts';
import { withMultipartField } from '../../../../core/platform/multipart-form.ts';
import { parseOpenAIError } from './openai-error.ts';
import { extractOpenAIStreamText, extractOpenAIUsage } from './openai-usage.ts';

const target: ChannelTarget = { id: 3, type: 1, baseUrl: 'https://api.example.com', key: 'sk-secret', organization: 'org-1', other: '' };
const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] };
const request = (changes: Partial<RelayRequest> = {}): RelayRequest => ({
  capability: 'chat',
  path: '/v1/chat/completions',
  contentType: 'application/json',
  rawBody: Buffer.from(JSON.stringify(body)),
  body,
  bodyChanged: false,
  model: 'gpt-4o',
  upstreamModel: 'gpt-4o',
  stream: false,
  ...changes,
});

describe('OpenAI-compatible requests', () => {
  it('forwards the caller bytes untouched when nothing changed', () => {
    const built = openaiProvider.chat?.buildRequest(request(), target);
    expect(built?.url).toBe('https://api.example.com/v1/chat/completions');
    expect(built?.headers).toMatchObject({ authorization: 'Bearer sk-secret', 'openai-organization': 'org-1', 'content-type': 'application/json' });
    expect(Buffer.isBuffer(built?.body)).toBe(true);
  });

  it('serialises the edited body when the pipeline changed it', () => {
    const edited = { ...body, model: 'gpt-4o-2024-08-06' };
    const built = openaiProvider.chat?.buildRequest(request({ body: edited, bodyChanged: true, upstreamModel: 'gpt-4o-2024-08-06' }), target);
    expect(built?.body).toBe(JSON.stringify(edited));
  });

  it('puts the model into a custom channel address and the vendor path in place of /v1', () => {
    const custom = customProvider.chat?.buildRequest(request({ upstreamModel: 'llama 3' }), {
      ...target,
      type: 8,
      baseUrl: 'http://127.0.0.1:9/route/{model}',
    });
    expect(custom?.url).toBe('http://127.0.0.1:9/route/llama%203/v1/chat/completions');
    const zhipu = zhipuV4Provider.chat?.buildRequest(request(), { ...target, type: 26, baseUrl: 'https://open.bigmodel.cn' });
    expect(zhipu?.url).toBe('https://open.bigmodel.cn/api/paas/v4/chat/completions');
  });
});

/** A form encoded by undici, as a Node client sends it; the file holds CR, LF and non-UTF-8 bytes. */
async function encodedForm(fields: Array<[string, string]>): Promise<{ raw: Buffer; contentType: string; file: Buffer }> {
  const file = Buffer.from([0x52, 0x49, 0x46, 0x46, 0x0d, 0x0a, 0x2d, 0x2d, 0xff, 0xfe, 0x00, 0x0d, 0x0a, 0x0d, 0x0a, 0x80]);
  const form = new FormData();
  // A file named "model" must not be taken for the model field.
  form.append('file', new Blob([file]), 'model');
  for (const [name, value] of fields) form.append(name, value);
  const encoded = new Request('http://127.0.0.1/', { method: 'POST', body: form });
  return { raw: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? '', file };
}

async function decodedForm(raw: Buffer | string | undefined, contentType: string): Promise<FormData> {
  return new Response(raw, { headers: { 'content-type': contentType } }).formData();
}

describe('OpenAI-compatible multipart requests', () => {
  const multipart = (raw: Buffer, contentType: string, upstreamModel: string): RelayRequest =>
    request({ capability: 'audio', path: '/v1/audio/transcriptions', contentType, rawBody: raw, body: undefined, model: 'whisper-1', upstreamModel });

  it('forwards the form untouched when the model is not mapped', async () => {
    const { raw, contentType } = await encodedForm([['model', 'whisper-1']]);
    expect(openaiProvider.audio?.buildRequest(multipart(raw, contentType, 'whisper-1'), target).body).toBe(raw);
  });

  it('rewrites a mapped model in the form and keeps the file byte for byte', async () => {
    const { raw, contentType, file } = await encodedForm([
      ['model', 'whisper-1'],
      ['language', 'en'],
    ]);
    const built = openaiProvider.audio?.buildRequest(multipart(raw, contentType, 'whisper-large-v3'), target);
    expect(built?.headers['content-type']).toBe(contentType);
    const form = await decodedForm(built?.body, contentType);
    expect(form.get('model')).toBe('whisper-large-v3');
    expect(form.get('language')).toBe('en');
    expect(Buffer.from(await (form.get('file') as File).arrayBuffer()).equals(file)).toBe(true);
  });

  it('adds the model field when the caller left it to the default', async () => {
    const { raw, contentType, file } = await encodedForm([['prompt', 'a red boat']]);
    const form = await decodedForm(openaiProvider.images?.buildRequest(multipart(raw, contentType, 'gpt-image-1'), target).body, contentType);
    expect(form.get('model')).toBe('gpt-image-1');
    expect(form.get('prompt')).toBe('a red boat');
    expect(Buffer.from(await (form.get('file') as File).arrayBuffer()).equals(file)).toBe(true);
  });

  it('leaves a body that is not a multipart form alone', () => {
    expect(withMultipartField(Buffer.from('not a form'), 'multipart/form-data; boundary=abc', 'model', 'x')).toBeUndefined();
    expect(withMultipartField(Buffer.from('{}'), 'application/json', 'model', 'x')).toBeUndefined();
  });
});

describe('OpenAI usage and errors', () => {
  it('reads chat, responses and cached usage', () => {
    expect(extractOpenAIUsage({ usage: { prompt_tokens: 10, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 4 } } })).toMatchObject({
      promptTokens: 10,
      completionTokens: 5,
      cachedTokens: 4,
    });
    expect(extractOpenAIUsage({ type: 'response.completed', response: { usage: { input_tokens: 7, output_tokens: 3 } } })).toMatchObject({
      promptTokens: 7,
      completionTokens: 3,
    });
    expect(extractOpenAIUsage({ usage: null })).toBeUndefined();
  });

  it('counts reasoning reported beside completion_tokens (xAI) as output, and never twice (OpenAI)', () => {
    // xAI: total = prompt + completion + reasoning (recorded in conformance/recorded/xai/xai-text.json).
    const xai = { prompt_tokens: 12, completion_tokens: 1, total_tokens: 241, completion_tokens_details: { reasoning_tokens: 228 } };
    expect(extractOpenAIUsage({ usage: xai })).toMatchObject({ promptTokens: 12, completionTokens: 229 });
    // OpenAI: reasoning is part of completion_tokens already.
    const openai = { prompt_tokens: 12, completion_tokens: 229, total_tokens: 241, completion_tokens_details: { reasoning_tokens: 228 } };
    expect(extractOpenAIUsage({ usage: openai })).toMatchObject({ promptTokens: 12, completionTokens: 229 });
  });

  it("reads Moonshot's cache hits, reported at the top of usage", () => {
    // Moonshot (Kimi) reports cached prompt tokens as `usage.cached_tokens`, beside prompt_tokens.
    expect(extractOpenAIUsage({ usage: { prompt_tokens: 1200, completion_tokens: 30, total_tokens: 1230, cached_tokens: 1024 } })).toMatchObject({
      promptTokens: 1200,
      cachedTokens: 1024,
    });
  });

  it('reads stream text of content, tool calls and responses deltas', () => {
    expect(extractOpenAIStreamText({ choices: [{ delta: { content: 'Hel' } }] })).toBe('Hel');
    expect(extractOpenAIStreamText({ choices: [{ delta: { tool_calls: [{ function: { name: 'f', arguments: '{}' } }] } }] })).toBe('f{}');
    expect(extractOpenAIStreamText({ type: 'response.output_text.delta', delta: 'lo' })).toBe('lo');
    // Groq and OpenRouter stream reasoning as `reasoning`; it is generated text like any other.
    expect(extractOpenAIStreamText({ choices: [{ delta: { reasoning: 'Hmm' } }] })).toBe('Hmm');
  });

  it('classifies dead credentials', () => {
    expect(
      parseOpenAIError(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }).disablesChannel,
    ).toBe(true);
    expect(parseOpenAIError(429, { error: { message: 'You exceeded your current quota', type: 'insufficient_quota' } }).disablesChannel).toBe(true);
    expect(parseOpenAIError(429, { error: { message: 'Rate limit reached', type: 'requests' } }).disablesChannel).toBe(false);
    expect(parseOpenAIError(502, 'Bad gateway').message).toBe('Bad gateway');
  });
});
