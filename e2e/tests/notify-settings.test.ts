import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginApi, type ApiSession } from '../support/api-session.ts';
import { loginAs, openConsole, saveScreenshot, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import type { TestServer } from '../support/server.ts';
import { closeFileServer, openFileServer } from '../support/file-server.ts';

let server: TestServer;
let browser: Browser;
let root: ApiSession;
const quotaPerUnit = 500_000;

beforeAll(async () => {
  ({ server, browser, root } = await openFileServer());
});

afterAll(() => closeFileServer(server));

/** `PUT /api/user/setting` as new-api's Dec-2025 console sends it from its notification settings (see the wire fixtures). */
const newApiBody = (webhookUrl: string) => ({
  notify_type: 'webhook',
  quota_warning_threshold: 2 * quotaPerUnit,
  webhook_url: webhookUrl,
  webhook_secret: 'hook-secret-value',
  notification_email: '',
  bark_url: '',
  gotify_url: '',
  gotify_token: '',
  gotify_priority: 5,
  upstream_model_update_notify_enabled: false,
  accept_unset_model_ratio_model: true,
  record_ip_log: true,
});

// One language, as every flow: the other is covered by the language smoke pass (language-smoke.test.ts) and the locale check.
describe.each(['en'] as const)('personal notification settings saved by new-api’s console (%s)', (language: Language) => {
  const settings = localeText('settings', language);

  it('shows what new-api’s console saved on our personal page, and our page’s change reads back in new-api’s shape', async () => {
    const name = `ns${language}${Date.now() % 100000}`;
    expect((await root.post('/api/user/', { username: name, password: 'password123', display_name: name })).success).toBe(true);
    const user = await loginApi(server.url, name, 'password123');
    const hook = `https://hooks.example.test/${language}`;
    const saved = await user.put('/api/user/setting', newApiBody(hook));
    expect(saved.success, saved.message).toBe(true);

    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await loginAs(page, name, 'password123', '/setting');
    const card = page.getByTestId('personal-budget');
    // The personal page loads several cards: slow on a loaded machine.
    await card.getByText(settings('personal.budget.title')).waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('alert-webhook-url').inputValue()).toBe(hook);
    await card.getByText(settings('personal.budget.secretSet')).waitFor();
    expect(await card.getByRole('checkbox').isChecked()).toBe(false);
    await saveScreenshot(page, `notify-settings-${language}`);

    // Changed in our console: new-api's console reads the new address from the user's settings, never the secret.
    await page.getByTestId('alert-webhook-url').fill(`${hook}/v2`);
    await page.getByTestId('alert-save').click();
    await page.getByText(settings('personal.budget.saved')).first().waitFor();
    const self = await user.get<{ setting: string }>('/api/user/self');
    expect(JSON.stringify(self)).not.toContain('hook-secret-value');
    expect(JSON.parse(self.data.setting)).toMatchObject({ notify_type: 'webhook', quota_warning_threshold: 2 * quotaPerUnit, webhook_url: `${hook}/v2` });
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 180_000);
});
