import { describe, expect, it } from 'vitest';
import type { UpstreamRequest } from '../../provider.ts';
import { noShaping, readChannelShaping, type ShapingColumns } from './channel-shaping.ts';
import { shapeUpstreamRequest, type ShapingInput } from './shape-upstream-request.ts';

function shapingOf(values: Partial<ShapingColumns>) {
  return readChannelShaping({ setting: '', settings: '', param_override: '', header_override: '', ...values }).shaping;
}

const callerBody = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] };
const request = (body: unknown = callerBody): UpstreamRequest => ({
  url: 'http://127.0.0.1/v1/chat/completions',
  method: 'POST',
  headers: { authorization: 'Bearer sk-key', 'content-type': 'application/json' },
  body: Buffer.from(JSON.stringify(body)),
});
const input = (shaping: ShapingInput['shaping'], extra: Partial<ShapingInput> = {}): ShapingInput => ({
  shaping,
  apiKey: 'sk-key',
  systemPromptDialect: 'openai-chat',
  callerBodies: [callerBody],
  ...extra,
});
const bodyOf = (shaped: ReturnType<typeof shapeUpstreamRequest>) => {
  if (shaped.refused) throw new Error('refused');
  return JSON.parse(String(shaped.request.body)) as Record<string, unknown>;
};

describe('shaping the upstream request', () => {
  it('hands back the very same request for a channel that sets nothing', () => {
    const sent = request();
    const shaped = shapeUpstreamRequest(sent, input(noShaping));
    expect(shaped.refused).toBeUndefined();
    expect(!shaped.refused && shaped.request).toBe(sent);
  });

  it('splices a classic override into the bytes, keeping the rest byte for byte', () => {
    const spaced = Buffer.from('{ "model" : "gpt-4o",  "messages":[{"role":"user","content":"hi"}] }');
    const shaped = shapeUpstreamRequest({ ...request(), body: spaced }, input(shapingOf({ param_override: '{"model":"gpt-4o-2024","temperature":0}' })));
    if (shaped.refused) throw new Error('refused');
    expect(String(shaped.request.body)).toBe('{ "model" : "gpt-4o-2024",  "messages":[{"role":"user","content":"hi"}] ,"temperature":0}');
    expect(shaped.upstreamModel).toBe('gpt-4o-2024');
  });

  it('applies system prompt, removed fields and operations in that order, once serialised', () => {
    const caller = { ...callerBody, service_tier: 'priority' };
    const shaping = shapingOf({
      setting: '{"system_prompt":"Be brief."}',
      param_override: JSON.stringify({ operations: [{ path: 'messages.0.content', mode: 'append', value: ' (channel)' }] }),
    });
    const shaped = shapeUpstreamRequest(request(caller), input(shaping, { callerBodies: [caller] }));
    expect(bodyOf(shaped)).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief. (channel)' },
        { role: 'user', content: 'hi' },
      ],
    });
  });

  it('leaves the system prompt out where the dialect takes none', () => {
    const shaping = shapingOf({ setting: '{"system_prompt":"Be brief."}' });
    const sent = request();
    const shaped = shapeUpstreamRequest(sent, input(shaping, { systemPromptDialect: undefined }));
    expect(!shaped.refused && shaped.request).toBe(sent);
  });

  it('reports the model an operation asks the upstream for', () => {
    const shaping = shapingOf({ param_override: JSON.stringify({ operations: [{ path: 'model', mode: 'ensure_suffix', value: '-latest' }] }) });
    const shaped = shapeUpstreamRequest(request(), input(shaping));
    expect(!shaped.refused && shaped.upstreamModel).toBe('gpt-4o-latest');
  });

  it("applies the operations' header edits after header_override", () => {
    const shaping = shapingOf({
      header_override: '{"X-Route":"red","X-Keep":"1"}',
      param_override: JSON.stringify({
        operations: [
          { path: 'x-route', mode: 'set_header', value: 'blue' },
          { path: 'Authorization', mode: 'delete_header' },
        ],
      }),
    });
    const shaped = shapeUpstreamRequest(request(), input(shaping));
    if (shaped.refused) throw new Error('refused');
    expect(shaped.request.headers).toEqual({ 'content-type': 'application/json', 'x-route': 'blue', 'x-keep': '1' });
  });

  it('passes a return_error refusal on', () => {
    const shaping = shapingOf({ param_override: JSON.stringify({ operations: [{ mode: 'return_error', value: 'no' }] }) });
    expect(shapeUpstreamRequest(request(), input(shaping)).refused).toMatchObject({ status: 400, message: 'no' });
  });

  it('with body pass-through, only the headers change', () => {
    const shaping = shapingOf({
      setting: '{"pass_through_body_enabled":true,"system_prompt":"Be brief."}',
      param_override: '{"temperature":0}',
      header_override: '{"X-Key-Copy":"{api_key}"}',
    });
    const sent = request({ ...callerBody, service_tier: 'flex' });
    const shaped = shapeUpstreamRequest(sent, input(shaping, { callerBodies: [{ service_tier: 'flex' }] }));
    if (shaped.refused) throw new Error('refused');
    expect(shaped.request.body).toBe(sent.body);
    expect(shaped.request.headers['x-key-copy']).toBe('sk-key');
  });

  it('never touches a multipart body', () => {
    const form = { ...request(), headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: Buffer.from('--x--') };
    const shaped = shapeUpstreamRequest(form, input(shapingOf({ param_override: '{"temperature":0}' })));
    expect(!shaped.refused && shaped.request).toBe(form);
  });
});

describe('the output ceiling a channel override asks for', () => {
  it('is reported when a classic override sets it, read off the override, not the bytes', () => {
    const shaped = shapeUpstreamRequest(request(), input(shapingOf({ param_override: '{"max_tokens":4096}' })));
    expect(!shaped.refused && shaped.outputTokens).toBe(4096);
  });

  it('is reported when an operation raises it, and not when it lowers or keeps it', () => {
    const raise = shapingOf({ param_override: JSON.stringify({ operations: [{ path: 'max_tokens', mode: 'set', value: 8000 }] }) });
    const raised = shapeUpstreamRequest(request({ ...callerBody, max_tokens: 100 }), input(raise));
    expect(!raised.refused && raised.outputTokens).toBe(8000);
    const lowered = shapeUpstreamRequest(request({ ...callerBody, max_tokens: 9000 }), input(raise));
    expect(!lowered.refused && lowered.outputTokens).toBeUndefined();
    const other = shapingOf({ param_override: JSON.stringify({ operations: [{ path: 'temperature', mode: 'set', value: 0 }] }) });
    const untouched = shapeUpstreamRequest(request({ ...callerBody, max_tokens: 100 }), input(other));
    expect(!untouched.refused && untouched.outputTokens).toBeUndefined();
  });

  it("passes the caller's headers to the header operations", () => {
    const pass = shapingOf({ param_override: JSON.stringify({ operations: [{ mode: 'pass_headers', value: ['session_id'] }] }) });
    const shaped = shapeUpstreamRequest(request(), input(pass, { callerHeaders: { session_id: 'sess-9', authorization: 'Bearer caller' } }));
    if (shaped.refused) throw new Error('refused');
    expect(shaped.request.headers).toEqual({ authorization: 'Bearer sk-key', 'content-type': 'application/json', session_id: 'sess-9' });
  });
});
