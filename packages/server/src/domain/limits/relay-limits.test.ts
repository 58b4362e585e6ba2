import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Clock } from '../../core/platform/clock.ts';
import { FakeOpenAIUpstream } from '../../entry/relay/testing/fake-openai-upstream.ts';
import { listenLocally, seedChannel, seedToken } from '../../entry/relay/testing/relay-seed.ts';
import { createTestApp, createTestUser, type TestApp, type TestUser } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';

/** A clock the test moves; it starts 10 s into a minute so window ends are predictable. */
function movableClock(): Clock & { advance(milliseconds: number): void } {
  let now = Math.floor(Date.now() / 60_000) * 60_000 + 10_000;
  return {
    now: () => now,
    unixSeconds: () => Math.floor(now / 1000),
    advance: (milliseconds) => {
      now += milliseconds;
    },
  };
}

interface Answer {
  status: number;
  retryAfter: string | null;
  error: { message: string; type: string; code: string } | undefined;
}

describe.each(testDatabases())('relay request limits on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let baseUrl: string;
  const clock = movableClock();

  const chat = async (apiKey: string, model = 'limited-model'): Promise<Answer> => {
    const response = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 20, messages: [{ role: 'user', content: 'Hello' }] }),
    });
    const body = (await response.json()) as { error?: Answer['error'] };
    return { status: response.status, retryAfter: response.headers.get('retry-after'), error: body.error };
  };
  /** Through inject: the answer's close (which gives slots back and corrects counts) has run when it resolves. */
  const chatInjected = async (apiKey: string): Promise<Answer> => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      payload: { model: 'limited-model', max_tokens: 20, messages: [{ role: 'user', content: 'Hello' }] },
    });
    const body = response.json<{ error?: Answer['error'] }>();
    return { status: response.statusCode, retryAfter: (response.headers['retry-after'] as string | undefined) ?? null, error: body.error };
  };
  const api = (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    testApp.app
      .inject({ method, url, headers: { ...user.headers, 'accept-language': 'en' }, ...(payload ? { payload } : {}) })
      .then((response) => response.json<{ success: boolean; message: string; data: Record<string, unknown> & Array<Record<string, unknown>> }>());
  const setLimits = async (tokenId: number, limits: { rpm_limit?: number; tpm_limit?: number; concurrency_limit?: number }) => {
    const { db } = testApp.context.database;
    await db.updateTable('tokens').set(limits).where('id', '=', tokenId).execute();
    await testApp.app.relay.tokens.reload(tokenId);
  };
  const burst = (count: number, send: () => Promise<Answer>) => Promise.all(Array.from({ length: count }, send));

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    fake.usage = { prompt: 100, completion: 150 };
    await fake.start();
    testApp = await createTestApp(database, {}, clock);
    baseUrl = await listenLocally(testApp);
    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, 'limited-model': 1, 'failing-model': 1 }));
    await seedChannel(testApp, { key: 'limits-upstream', baseUrl: fake.baseUrl, models: ['limited-model'], groups: ['default', 'vip'] });
    await seedChannel(testApp, { key: 'limits-failing', baseUrl: fake.baseUrl, models: ['failing-model'], groups: ['default', 'vip'], autoBan: false });
    fake.behave('limits-failing', 'status-500');
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  it("keeps a token's requests per minute, set in its form, to the limit among 150 simultaneous requests, and resets with the minute", async () => {
    const owner = await createTestUser(testApp, { quota: 100_000_000 });
    const created = await api(owner, 'POST', '/api/token/', { name: 'rpm', remain_quota: 10_000_000, rpm_limit: 7 });
    expect(created.success, created.message).toBe(true);
    const tokenId = Number(created.data[0]?.id);
    const saved = await api(owner, 'GET', `/api/token/${tokenId}`);
    expect(saved.data).toMatchObject({ rpm_limit: 7, tpm_limit: 0, concurrency_limit: 0 });
    await testApp.app.relay.tokens.reload(tokenId);
    const apiKey = `sk-${String(saved.data.key)}`;
    const upstreamBefore = fake.requestsFor('limits-upstream').length;

    const answers = await burst(150, () => chat(apiKey));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(7);
    expect(fake.requestsFor('limits-upstream').length - upstreamBefore).toBe(7);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(143);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      // 10 s into the minute: the window ends in 50 s.
      expect(answer.retryAfter).toBe('50');
      expect(answer.error).toMatchObject({ type: 'requests', code: 'token_rpm_limit_exceeded' });
      expect(answer.error?.message).toContain('limit of 7 requests per minute (RPM) is reached; retry in 50 s');
    }

    clock.advance(60_000);
    const nextMinute = await burst(20, () => chat(apiKey));
    expect(nextMinute.filter((answer) => answer.status === 200)).toHaveLength(7);
  });

  it('refuses a limit out of range with a clear message and changes nothing', async () => {
    const owner = await createTestUser(testApp, { quota: 1_000_000 });
    const created = await api(owner, 'POST', '/api/token/', { name: 'range', concurrency_limit: 2 });
    const id = Number(created.data[0]?.id);
    const refused = await api(owner, 'PUT', '/api/token/', { id, name: 'range', rpm_limit: -1 });
    expect(refused).toMatchObject({ success: false, message: 'rpm_limit must be a whole number from 0 to 2147483647 (0 or empty for no limit)' });
    const cleared = await api(owner, 'PUT', '/api/token/', { id, name: 'range', concurrency_limit: null, tpm_limit: 5000 });
    expect(cleared.success, cleared.message).toBe(true);
    const after = await api(owner, 'GET', `/api/token/${id}`);
    expect(after.data).toMatchObject({ rpm_limit: 0, tpm_limit: 5000, concurrency_limit: 0 });
  });

  it('lets at most the concurrency limit reach the upstream at once and frees the slots when answers end', async () => {
    const owner = await createTestUser(testApp, { quota: 100_000_000 });
    const token = await seedToken(testApp, owner.id, { remainQuota: 10_000_000 });
    await setLimits(token.id, { concurrency_limit: 3 });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    fake.beforeAnswer = () => held;
    const upstreamBefore = fake.requestsFor('limits-upstream').length;
    try {
      const answered: Answer[] = [];
      const pending = burst(60, async () => {
        const answer = await chat(token.apiKey);
        answered.push(answer);
        return answer;
      });
      // Everything beyond the 3 slots is refused while the 3 wait on the upstream.
      await vi.waitFor(() => expect(answered).toHaveLength(57), { timeout: 20_000 });
      expect(fake.requestsFor('limits-upstream').length - upstreamBefore).toBe(3);
      for (const answer of answered) {
        expect(answer.status).toBe(429);
        expect(answer.error).toMatchObject({ code: 'token_concurrency_limit_exceeded' });
        expect(answer.retryAfter).toBe('1');
      }
      release();
      const answers = await pending;
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
    } finally {
      fake.beforeAnswer = undefined;
    }
    // The slots came back with the answers: three more may run, one after another without limit.
    for (let index = 0; index < 5; index += 1) expect((await chatInjected(token.apiKey)).status).toBe(200);
  });

  it('counts tokens per minute by the tokens really used, refusing once the minute is full', async () => {
    const owner = await createTestUser(testApp, { quota: 100_000_000 });
    const token = await seedToken(testApp, owner.id, { remainQuota: 10_000_000 });
    await setLimits(token.id, { tpm_limit: 1000 });
    // Each answer uses 100 + 150 = 250 tokens: four fill the minute.
    for (let index = 0; index < 4; index += 1) expect((await chatInjected(token.apiKey)).status).toBe(200);
    const refused = await chatInjected(token.apiKey);
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ type: 'tokens', code: 'token_tpm_limit_exceeded' });
    expect(refused.error?.message).toContain('limit of 1000 tokens per minute (TPM)');
    clock.advance(60_000);
    expect((await chatInjected(token.apiKey)).status).toBe(200);
  });

  it('counts the tokens requests in flight are expected to use, so a parallel burst stays within tokens per minute', async () => {
    const owner = await createTestUser(testApp, { quota: 100_000_000 });
    const token = await seedToken(testApp, owner.id, { remainQuota: 10_000_000 });
    await setLimits(token.id, { tpm_limit: 1000 });
    clock.advance(60_000);
    // The model's answers are known to use a 100-token prompt, and these requests ask for at most 20
    // completion tokens: each is expected to use 120. Thirty at once may not all pass a check made
    // before any of them is charged.
    expect((await chatInjected(token.apiKey)).status).toBe(200);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    fake.beforeAnswer = () => held;
    try {
      const answered: Answer[] = [];
      const pending = burst(30, async () => {
        const answer = await chat(token.apiKey);
        answered.push(answer);
        return answer;
      });
      // Six more fit beside the first answer's 250 tokens (6 × 120 ≤ 750); every other caller is refused while they wait.
      await vi.waitFor(() => expect(answered).toHaveLength(24), { timeout: 20_000 });
      release();
      const answers = await pending;
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(6);
    } finally {
      fake.beforeAnswer = undefined;
    }
  });

  it("applies new-api's per-user model request limit across the user's tokens, giving failed requests' success slots back", async () => {
    const { options } = testApp.context;
    const owner = await createTestUser(testApp, { quota: 100_000_000 });
    const first = await seedToken(testApp, owner.id, { remainQuota: 10_000_000 });
    const second = await seedToken(testApp, owner.id, { remainQuota: 10_000_000 });
    await options.set('ModelRequestRateLimitSuccessCount', '5');
    await options.set('ModelRequestRateLimitEnabled', 'true');
    try {
      // Failed requests do not use up the success count.
      clock.advance(60_000);
      for (let index = 0; index < 3; index += 1) expect((await chat(first.apiKey, 'failing-model')).status).toBeGreaterThanOrEqual(400);
      const answers = await Promise.all(Array.from({ length: 100 }, (_, index) => chat(index % 2 === 0 ? first.apiKey : second.apiKey)));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(5);
      const refused = answers.find((answer) => answer.status === 429);
      expect(refused?.error).toMatchObject({ type: 'new_api_error', code: 'model_request_rate_limit_exceeded' });
      expect(refused?.error?.message).toContain('at most 5 requests in 1 minutes');
    } finally {
      await options.set('ModelRequestRateLimitEnabled', 'false');
      await options.set('ModelRequestRateLimitSuccessCount', '1000');
    }
  });

  it("uses a group's own counts from ModelRequestRateLimitGroup: its total counts failed requests too", async () => {
    const { options } = testApp.context;
    const owner = await createTestUser(testApp, { quota: 100_000_000, group: 'vip' });
    const token = await seedToken(testApp, owner.id, { remainQuota: 10_000_000 });
    await options.set('ModelRequestRateLimitGroup', JSON.stringify({ vip: [3, 100] }));
    await options.set('ModelRequestRateLimitEnabled', 'true');
    clock.advance(60_000);
    try {
      expect((await chat(token.apiKey, 'failing-model')).status).toBeGreaterThanOrEqual(400);
      expect((await chatInjected(token.apiKey)).status).toBe(200);
      expect((await chatInjected(token.apiKey)).status).toBe(200);
      const refused = await chatInjected(token.apiKey);
      expect(refused.status).toBe(429);
      expect(refused.error?.message).toContain('at most 3 requests in 1 minutes, failed ones included');
      // Another group's user is held to the global counts (success 1000): not refused.
      const other = await createTestUser(testApp, { quota: 100_000_000 });
      const otherToken = await seedToken(testApp, other.id, { remainQuota: 10_000_000 });
      for (let index = 0; index < 5; index += 1) expect((await chatInjected(otherToken.apiKey)).status).toBe(200);
    } finally {
      await options.set('ModelRequestRateLimitEnabled', 'false');
      await options.set('ModelRequestRateLimitGroup', '{}');
    }
  });

  it('does no limit work for a token without limits while the per-user limit is off', async () => {
    const owner = await createTestUser(testApp, { quota: 100_000_000 });
    const token = await seedToken(testApp, owner.id, { remainQuota: 10_000_000 });
    const admit = vi.spyOn(testApp.context.limitStore, 'admit');
    try {
      const answers = await burst(30, () => chat(token.apiKey));
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
      expect(admit).not.toHaveBeenCalled();
    } finally {
      admit.mockRestore();
    }
  });
});
