import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelTarget, TransportOptions, UpstreamResponse } from '../../provider.ts';
import { BaiduAccessTokens, parseBaiduKey } from './access-token.ts';
import { createBaiduTransport } from './baidu-transport.ts';
import { fakeBaiduKeys, startFakeBaidu, type FakeBaidu } from './testing/fake-baidu.ts';

async function bodyJson(response: UpstreamResponse): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

describe('Baidu access tokens and transport', () => {
  let fake: FakeBaidu;
  let now = 1_700_000_000;
  const clock = () => now;

  beforeAll(async () => {
    fake = await startFakeBaidu();
  });
  afterAll(() => fake.close());

  const target = (key: string): ChannelTarget => ({ id: 1, type: 15, baseUrl: fake.url, key, organization: '', other: '' });
  const options = (key: string): TransportOptions => ({
    signal: new AbortController().signal,
    headersTimeoutMs: 5000,
    bodyTimeoutMs: 5000,
    target: target(key),
  });
  const chat = {
    url: '',
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'Hi' }] }),
  };
  const chatUrl = () => `${fake.url}/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro`;

  it('shares one exchange between concurrent callers and caches the token until an hour before it expires', async () => {
    const tokens = new BaiduAccessTokens(clock);
    const key = parseBaiduKey(fakeBaiduKeys.good);
    if (!key) throw new Error('fixture key');
    const before = fake.tokensIssued();
    const [first, second] = await Promise.all([tokens.accessToken(fake.url, key), tokens.accessToken(fake.url, key)]);
    expect(second).toBe(first);
    expect(fake.tokensIssued()).toBe(before + 1);
    expect(fake.requests.at(-1)?.query.get('grant_type')).toBe('client_credentials');
    now += 2_592_000 - 3601;
    expect(await tokens.accessToken(fake.url, key)).toBe(first);
    now += 2;
    expect(await tokens.accessToken(fake.url, key)).not.toBe(first);
    expect(fake.tokensIssued()).toBe(before + 2);
  });

  it('sends the token in the query string and fetches a new one once when Baidu calls it invalid', async () => {
    const transport = createBaiduTransport(new BaiduAccessTokens(clock));
    const ok = await transport.send({ ...chat, url: chatUrl() }, options(fakeBaiduKeys.good));
    expect(ok.statusCode).toBe(200);
    expect(await bodyJson(ok)).toMatchObject({ id: 'as-bcmt5ct4iy' });
    const firstToken = fake.requests.at(-1)?.query.get('access_token');
    expect(firstToken).toMatch(/^24\./);

    fake.revokeTokens();
    const issued = fake.tokensIssued();
    const retried = await transport.send({ ...chat, url: chatUrl() }, options(fakeBaiduKeys.good));
    expect(retried.statusCode).toBe(200);
    expect(fake.tokensIssued()).toBe(issued + 1);
    expect(fake.requests.at(-1)?.query.get('access_token')).not.toBe(firstToken);
  });

  it('answers error bodies sent with HTTP 200 with the status their code means', async () => {
    const transport = createBaiduTransport(new BaiduAccessTokens(clock));
    const limited = await transport.send({ ...chat, url: chatUrl() }, options(fakeBaiduKeys.rateLimited));
    expect(limited.statusCode).toBe(429);
    expect(await bodyJson(limited)).toEqual({ error_code: 18, error_msg: 'Open api qps request limit reached' });

    const unknown = await transport.send({ ...chat, url: chatUrl() }, options(fakeBaiduKeys.unknown));
    expect(unknown.statusCode).toBe(401);
    expect(await bodyJson(unknown)).toEqual({ error: 'invalid_client', error_description: 'unknown client id' });

    const malformed = await transport.send({ ...chat, url: chatUrl() }, options('no-separator'));
    expect(malformed.statusCode).toBe(401);
  });
});
