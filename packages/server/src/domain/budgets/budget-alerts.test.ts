import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { optionDefinitions } from '@switchboard/contracts';
import { startSmtpCatcher } from '../../entry/api/verification/testing/smtp-catcher.ts';
import { movableClock, type MovableClock } from '../../entry/api/user/testing/account-test-kit.ts';
import { FakeOpenAIUpstream } from '../../entry/relay/testing/fake-openai-upstream.ts';
import { seedChannel, seedToken } from '../../entry/relay/testing/relay-seed.ts';
import { startLocalServer } from '../../testing/local-http-server.ts';
import { createTestApp, createTestUser, type TestApp, type TestUser } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { balanceAlertQuietSeconds } from './budget-alerts.ts';
import { answerCost, budgetModel, promptTokens } from './testing/budget-burst.ts';

describe.each(testDatabases())('balance and budget alerts by mail and webhook on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  let hook: Awaited<ReturnType<typeof startLocalServer>>;
  let clock: MovableClock;

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    hook = await startLocalServer({ 'POST /hook': () => ({ json: { ok: true } }) });
    fake = new FakeOpenAIUpstream();
    fake.usage = { prompt: promptTokens, completion: answerCost - promptTokens };
    await fake.start();
    clock = movableClock();
    testApp = await createTestApp(database, { TZ: 'UTC' }, clock);
    const { options } = testApp.context;
    const settings = { SMTPServer: '127.0.0.1', SMTPPort: String(smtp.port), SMTPAccount: 'mailer@gateway.test', SMTPToken: 'smtp-password' };
    for (const [key, value] of Object.entries(settings)) await options.set(key, value);
    await allowTheHook();
    await options.set('ModelRatio', JSON.stringify({ ...options.getJson<Record<string, number>>('ModelRatio'), [budgetModel]: 1 }));
    await seedChannel(testApp, { key: 'alert-upstream', baseUrl: fake.baseUrl, models: [budgetModel] });
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
    await smtp.close();
    await hook.close();
  });

  /** As an operator lets the server reach its own network: the IP allow list, any port. */
  async function allowTheHook(): Promise<void> {
    const { options } = testApp.context;
    await options.set('fetch_setting.ip_filter_mode', 'true');
    await options.set('fetch_setting.ip_list', '["127.0.0.1"]');
    await options.set('fetch_setting.allowed_ports', '[]');
  }

  async function userWithAlerts(
    quota: number,
    alerts: { threshold: number | null; secret?: string },
  ): Promise<{ user: TestUser; email: string; hookPath: string }> {
    const user = await createTestUser(testApp, { quota });
    const email = `${user.username}@users.test`;
    await testApp.context.database.db.updateTable('users').set({ email }).where('id', '=', user.id).execute();
    const saved = await testApp.app.inject({
      method: 'PUT',
      url: '/api/budget/self/alerts',
      headers: user.headers,
      payload: {
        quota_warning_threshold: alerts.threshold,
        webhook_url: `${hook.url}/hook?user=${user.id}`,
        ...(alerts.secret ? { webhook_secret: alerts.secret } : {}),
      },
    });
    expect(saved.json().success).toBe(true);
    return { user, email, hookPath: `/hook?user=${user.id}` };
  }

  async function spend(apiKey: string, times: number): Promise<void> {
    for (let index = 0; index < times; index += 1) {
      const answer = await testApp.app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ model: budgetModel, messages: [{ role: 'user', content: 'Hello' }] }),
      });
      expect(answer.statusCode).toBe(200);
    }
    await testApp.app.relay.budgets.alerts.settled();
  }

  const mailsTo = (email: string) => smtp.mails.filter((mail) => mail.to.includes(email));
  const hooksOf = (path: string) => hook.requests.filter((request) => request.url === path);

  it('warns once when the balance crosses the user threshold, and again only after a top-up and a new crossing', async () => {
    const threshold = 10 * answerCost;
    const { user, email, hookPath } = await userWithAlerts(threshold + Math.round(1.5 * answerCost), { threshold, secret: 'hook-secret' });
    const token = await seedToken(testApp, user.id, { unlimited: true });
    const self = (await testApp.app.inject({ method: 'GET', url: '/api/budget/self', headers: user.headers })).json();
    expect(self.data).toMatchObject({
      quota_warning_threshold: threshold,
      own_threshold: true,
      webhook_secret_set: true,
      webhook_url: `${hook.url}${hookPath}`,
    });
    expect(JSON.stringify(self.data)).not.toContain('hook-secret');

    await spend(token.apiKey, 1);
    expect(mailsTo(email)).toHaveLength(0);
    await spend(token.apiKey, 1);
    expect(mailsTo(email)).toHaveLength(1);
    expect(mailsTo(email)[0]?.text).toContain('under the reminder threshold of');
    const [posted] = hooksOf(hookPath);
    expect(posted).toBeDefined();
    expect(JSON.parse(posted?.body ?? '{}')).toMatchObject({ type: 'quota_low', values: { threshold } });
    expect(posted?.headers['x-webhook-signature']).toBe(
      createHmac('sha256', 'hook-secret')
        .update(posted?.body ?? '')
        .digest('hex'),
    );
    // Further below the threshold: no new alert.
    await spend(token.apiKey, 2);
    expect([mailsTo(email).length, hooksOf(hookPath).length]).toEqual([1, 1]);

    // A top-up lifts the balance over the threshold; spending down through it again is a new crossing.
    const topUp = threshold + answerCost - (testApp.app.relay.users.get(user.id)?.quota ?? 0);
    await testApp.context.database.db
      .updateTable('users')
      .set({ quota: sql`quota + ${topUp}` })
      .where('id', '=', user.id)
      .execute();
    await testApp.app.relay.users.reload(user.id);
    clock.advance(balanceAlertQuietSeconds + 1);
    await spend(token.apiKey, 2);
    expect([mailsTo(email).length, hooksOf(hookPath).length]).toEqual([2, 2]);
  });

  it("mails the notification e-mail of new-api's personal settings instead of the account's address", async () => {
    const threshold = 10 * answerCost;
    const user = await createTestUser(testApp, { quota: threshold + Math.round(1.5 * answerCost) });
    const accountEmail = `${user.username}@users.test`;
    const notifyEmail = `${user.username}-alerts@elsewhere.test`;
    await testApp.context.database.db.updateTable('users').set({ email: accountEmail }).where('id', '=', user.id).execute();
    const saved = await testApp.app.inject({
      method: 'PUT',
      url: '/api/user/setting',
      headers: user.headers,
      payload: { notify_type: 'email', quota_warning_threshold: threshold, notification_email: notifyEmail, webhook_url: '', webhook_secret: '' },
    });
    expect(saved.json().success).toBe(true);
    await vi.waitFor(() => expect(testApp.app.relay.budgets.book.threshold(user.id)).toBe(threshold));
    const token = await seedToken(testApp, user.id, { unlimited: true });

    await spend(token.apiKey, 2);
    expect(mailsTo(notifyEmail)).toHaveLength(1);
    expect(mailsTo(accountEmail)).toHaveLength(0);
  });

  it('alerts at 50, 80 and 100 % of a token budget, once each per period', async () => {
    const { user, email, hookPath } = await userWithAlerts(100_000_000, { threshold: null });
    const token = await seedToken(testApp, user.id, { remainQuota: 100_000_000, name: 'nightly-batch' });
    const saved = await testApp.app.inject({
      method: 'PUT',
      url: `/api/budget/tokens/${token.id}`,
      headers: user.headers,
      payload: { budget_quota: 10 * answerCost, budget_period: 'month' },
    });
    expect(saved.json().success).toBe(true);
    await vi.waitFor(() => expect(testApp.app.relay.budgets.book.token(token.id)?.limit).toBe(10 * answerCost));

    await spend(token.apiKey, 4);
    expect(mailsTo(email)).toHaveLength(0);
    await spend(token.apiKey, 1);
    expect(mailsTo(email).map((mail) => /has reached (\d+)%/.exec(mail.text)?.[1])).toEqual(['50']);
    await spend(token.apiKey, 2);
    expect(mailsTo(email)).toHaveLength(1);
    await spend(token.apiKey, 1);
    await spend(token.apiKey, 2);
    expect(mailsTo(email).map((mail) => /has reached (\d+)%/.exec(mail.text)?.[1])).toEqual(['50', '80', '100']);
    expect(mailsTo(email)[0]?.text).toContain('The monthly budget of token &#34;nightly-batch&#34; has reached 50%');
    const bodies = hooksOf(hookPath).map((request) => JSON.parse(request.body) as { type: string; values: { level: number } });
    expect(bodies.map((body) => [body.type, body.values.level])).toEqual([
      ['budget_threshold', 50],
      ['budget_threshold', 80],
      ['budget_threshold', 100],
    ]);
    // Used up: refused, and no further alert however often it is tried.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const refused = await testApp.app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ model: budgetModel, messages: [{ role: 'user', content: 'Hello' }] }),
      });
      expect(refused.statusCode).toBe(429);
    }
    await testApp.app.relay.budgets.alerts.settled();
    expect([mailsTo(email).length, hooksOf(hookPath).length]).toEqual([3, 3]);
  });

  it('refuses a webhook address that is not http(s) and keeps the settings', async () => {
    const { user, hookPath } = await userWithAlerts(1000, { threshold: 500 });
    for (const webhook_url of ['file:///etc/passwd', 'javascript:alert(1)', 'not a url']) {
      const answer = await testApp.app.inject({
        method: 'PUT',
        url: '/api/budget/self/alerts',
        headers: user.headers,
        payload: { quota_warning_threshold: 1, webhook_url },
      });
      expect(answer.statusCode).toBe(400);
    }
    const self = (await testApp.app.inject({ method: 'GET', url: '/api/budget/self', headers: user.headers })).json();
    expect(self.data).toMatchObject({ quota_warning_threshold: 500, webhook_url: `${hook.url}${hookPath}` });
  });

  it('refuses loopback, private and metadata webhooks under the default policy, and never posts to one stored before', async () => {
    const threshold = 10 * answerCost;
    const { user, email, hookPath } = await userWithAlerts(threshold + Math.round(1.5 * answerCost), { threshold });
    const { options } = testApp.context;
    for (const key of ['fetch_setting.ip_filter_mode', 'fetch_setting.ip_list', 'fetch_setting.allowed_ports'] as const)
      await options.set(key, optionDefinitions[key].defaultValue);
    try {
      const port = new URL(hook.url).port;
      for (const webhook_url of [
        `http://127.0.0.1:${port}/hook`,
        `http://2130706433:${port}/hook`,
        `http://0177.0.0.1:${port}/hook`,
        `http://[::ffff:127.0.0.1]:${port}/hook`,
        `http://localhost.:${port}/hook`,
        'http://127.0.0.1:5432/',
        'http://169.254.169.254/latest/meta-data/',
        'http://10.0.0.1/',
      ]) {
        const answer = await testApp.app.inject({
          method: 'PUT',
          url: '/api/budget/self/alerts',
          headers: { ...user.headers, 'accept-language': 'en' },
          payload: { quota_warning_threshold: 1, webhook_url },
        });
        expect(answer.json(), webhook_url).toMatchObject({ success: false, message: expect.stringMatching(/not allowed/) });
      }
      // The address saved while it was allowed (or imported) is checked again at each post.
      const token = await seedToken(testApp, user.id, { unlimited: true });
      await spend(token.apiKey, 2);
      expect(mailsTo(email)).toHaveLength(1);
      expect(hooksOf(hookPath)).toHaveLength(0);
    } finally {
      await allowTheHook();
    }
  });
});
