import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../testing/test-databases.ts';
import { startReplayUpstream } from './conformance/testing/replay-upstream.ts';
import type { FakeServer } from './providers/claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from './providers/claude/testing/native-relay.ts';

/**
 * A request the channel's format cannot say is the caller's mistake: a 400 in the caller's format
 * (OpenAI's error shape here), no upstream call, nothing billed, no other channel tried. OpenAI
 * requires a function tool's `name`; Anthropic's and Gemini's formats cannot declare a tool without one.
 */
describe.each(testDatabases().filter((database) => database.dialect === 'sqlite'))('requests a channel cannot convert, on $dialect', (database) => {
  let relay: NativeRelay;
  let upstream: FakeServer;
  const channels: number[] = [];

  beforeAll(async () => {
    upstream = await startReplayUpstream(new Map());
    relay = await startNativeRelay(database);
    await relay.testApp.context.options.set('ModelRatio', JSON.stringify({ 'claude-unnamed': 1, 'gemini-unnamed': 1 }));
    channels.push(await relay.channel({ type: 14, key: 'sk-claude', baseUrl: upstream.url, models: ['claude-unnamed'] }));
    channels.push(await relay.channel({ type: 24, key: 'sk-gemini', baseUrl: upstream.url, models: ['gemini-unnamed'] }));
  });
  afterAll(async () => {
    await relay.close();
    await upstream.close();
  });

  it.each([
    ['Claude', 'claude-unnamed'],
    ['Gemini', 'gemini-unnamed'],
  ])('a function tool without a name on a %s channel is a 400 naming the field, charging nothing', async (vendor, model) => {
    const token = await relay.token();
    const response = await fetch(`${relay.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hi' }], tools: [{ type: 'function', function: { parameters: { type: 'object' } } }] }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string; type: string; code: string } };
    expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_request' });
    expect(body.error.message).toContain(`${vendor}: tools.0.function.name`);
    expect(upstream.requests).toEqual([]);
    const state = await token.state(channels);
    expect([state.token.used_quota, state.logs.filter((log) => log.type === 2).length]).toEqual([0, 0]);
  });
});
