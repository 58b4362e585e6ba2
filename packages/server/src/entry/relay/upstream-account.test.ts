import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer } from '../../testing/local-http-server.ts';
import { AccountCallError, AccountQuestionUnanswerable, balanceSupported, fetchUpstreamBalance, listUpstreamModels } from './upstream-account.ts';

/** Each vendor's account API answered by a local server in that vendor's documented shape. */
describe('upstream accounts: model lists and balances through the providers', () => {
  let upstream: Awaited<ReturnType<typeof startLocalServer>>;
  const now = Date.UTC(2026, 10, 25);
  const channel = (type: number, key = 'sk-good', other = '') => ({ type, baseUrl: `${upstream.url}/`, key, other });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  beforeAll(async () => {
    upstream = await startLocalServer({
      'GET /v1/models': (request) => {
        if (request.headers['x-api-key'] === 'sk-good') return { json: { data: [{ id: 'claude-sonnet-4-5', type: 'model' }], has_more: false } };
        return request.headers.authorization === 'Bearer sk-good'
          ? { json: { object: 'list', data: [{ id: 'gpt-4o' }, { id: 'o3' }] } }
          : { status: 401, json: {} };
      },
      'GET /v1beta/models': (request) => ({ json: { models: request.headers['x-goog-api-key'] === 'sk-good' ? [{ name: 'models/gemini-2.5-pro' }] : [] } }),
      'GET /api/tags': (request) => ({ json: { models: [{ name: request.headers.authorization ? 'llama3:authorised' : 'llama3' }] } }),
      'GET /v1/dashboard/billing/subscription': () => ({ json: { hard_limit_usd: 20 } }),
      'GET /v1/dashboard/billing/usage': () => ({ json: { total_usage: 550 } }),
      'GET /dashboard/billing/credit_grants': () => ({ json: { total_available: 7.25, total_remaining: '3.5' } }),
      'GET /api/v1/credits': () => ({ json: { data: { total_credits: 10, total_usage: 2.5 } } }),
      'GET /v1/users/me/balance': () => ({ json: { code: 0, data: { available_balance: 49.58, voucher_balance: 46.58, cash_balance: 3 } } }),
      'GET /v1/user/info': () => ({ json: { code: 20000, data: { totalBalance: '88.9', balance: '0.88' } } }),
      'GET /user/balance': () => ({
        json: {
          is_available: true,
          balance_infos: [
            { currency: 'CNY', total_balance: '110.00' },
            { currency: 'USD', total_balance: '12.50' },
          ],
        },
      }),
      'GET /client/v4/accounts/acc-42/ai/models/search': (request) => ({
        json: {
          success: true,
          result: request.headers.authorization === 'Bearer cf-token' ? [{ name: '@cf/meta/llama-3.1-8b-instruct' }] : [],
          result_info: { total_count: 1 },
        },
      }),
      'GET /broken': () => ({ text: 'not json' }),
    });
  });
  afterAll(() => upstream.close());

  it("lists models in each vendor dialect, OpenAI's for the OpenAI-compatible types", async () => {
    expect(await listUpstreamModels(channel(1), now)).toEqual(['gpt-4o', 'o3']);
    expect(await listUpstreamModels(channel(14), now)).toEqual(['claude-sonnet-4-5']);
    expect(await listUpstreamModels(channel(24), now)).toEqual(['gemini-2.5-pro']);
    expect(await listUpstreamModels(channel(4, ''), now)).toEqual(['llama3']);
    expect(await listUpstreamModels(channel(4), now)).toEqual(['llama3:authorised']);
    expect(await listUpstreamModels(channel(1, 'sk-good\nsk-second'), now)).toEqual(['gpt-4o', 'o3']);
  });

  it("passes the channel's extra field to the provider: Cloudflare's account id", async () => {
    expect(await listUpstreamModels(channel(39, 'cf-token', ' acc-42 '), now)).toEqual(['@cf/meta/llama-3.1-8b-instruct']);
    expect(upstream.requests.some((request) => request.url.startsWith('/client/v4/accounts/acc-42/ai/models/search?'))).toBe(true);
    expect(((await failure(listUpstreamModels(channel(39, 'cf-token'), now))) as Error).message).toContain('account id');
  });

  it('sends nothing for a vendor without a model list, and says why', async () => {
    const before = upstream.requests.length;
    // Native vendors without a list endpoint: even with no base URL (iFlytek's is a WebSocket host) the answer is "none".
    for (const type of [15, 16, 18, 23, 33, 35, 37, 41, 44, 49]) {
      const error = await failure(listUpstreamModels({ type, baseUrl: '', key: 'k', other: '' }, now));
      expect(error).toBeInstanceOf(AccountQuestionUnanswerable);
      expect((error as AccountQuestionUnanswerable).notRelayedReason).toBeUndefined();
    }
    const palm = await failure(listUpstreamModels(channel(11), now));
    expect(palm).toBeInstanceOf(AccountQuestionUnanswerable);
    expect((palm as AccountQuestionUnanswerable).notRelayedReason).toContain('Google has shut down the PaLM API');
    expect(upstream.requests.length).toBe(before);
  });

  it('reads each balance from the vendor that has one', async () => {
    const balances = Object.fromEntries(
      await Promise.all([1, 8, 12, 13, 20, 25, 40, 43].map(async (type) => [type, await fetchUpstreamBalance(channel(type), now)])),
    );
    expect(balances).toEqual({ 1: 14.5, 8: 14.5, 12: 3.5, 13: 7.25, 20: 7.5, 25: 49.58, 40: 88.9, 43: 12.5 });
    const usage = upstream.requests.find((request) => request.url.startsWith('/v1/dashboard/billing/usage'));
    expect(usage?.url).toBe('/v1/dashboard/billing/usage?start_date=2026-08-18&end_date=2026-11-26');
  });

  it('says which types have a balance', () => {
    expect([1, 8, 12, 13, 20, 25, 40, 43].every(balanceSupported)).toBe(true);
    expect([3, 6, 7, 14, 24, 33, 41, 2, 15].some(balanceSupported)).toBe(false);
  });

  it('turns every failure into a message that never holds the key', async () => {
    const unauthorised = await failure(listUpstreamModels(channel(1, 'sk-bad'), now));
    expect(unauthorised).toBeInstanceOf(AccountCallError);
    expect((unauthorised as Error).message).toBe('HTTP 401');
    expect(((await failure(listUpstreamModels({ type: 1, baseUrl: `${upstream.url}/broken#`, key: 'sk-good', other: '' }, now))) as Error).message).toBe(
      'the answer is not JSON',
    );
    expect(((await failure(fetchUpstreamBalance(channel(14), now))) as Error).message).toBe('not supported');
    expect(((await failure(listUpstreamModels({ type: 47, baseUrl: '', key: 'sk-good', other: '' }, now))) as Error).message).toBe('no base URL');
  });
});
