import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiSession } from '../support/api-session.ts';
import { loginAs, openConsole } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import type { TestServer } from '../support/server.ts';
import { closeFileServer, openFileServer } from '../support/file-server.ts';

/**
 * The settings sections share one answer of the options. Saving one section reads them again, and every
 * section (and the visual pricing table) used to fill itself again from that answer, which undid what the
 * administrator had typed and not yet saved in the others.
 */
let server: TestServer;
let browser: Browser;
let root: ApiSession;

beforeAll(async () => {
  ({ server, browser, root } = await openFileServer());
});

afterAll(() => closeFileServer(server));

describe('unsaved edits in the root settings (en)', () => {
  const t = localeText('settings', 'en');

  it('keeps what is typed in one section while another is saved, and follows the server elsewhere', async () => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language: 'en' });
    await loginAs(page, 'root', '123456', '/setting?tab=operation');
    const section = (id: string) => page.getByTestId(`section-${id}`);
    const field = (id: string, key: string) => section(id).getByLabel(t(`fields.${key}`), { exact: true });
    const saved = () =>
      page
        .locator('.ant-message-notice', { hasText: t('messages.saved') })
        .last()
        .waitFor();
    await section('general').waitFor();

    // Typed, not saved: a top-up link and a new model's ratio in the visual pricing table.
    await field('general', 'TopUpLink').fill('https://shop.example/typed');
    await page.getByRole('tab', { name: t('pricing.visualTab') }).click();
    const editor = page.getByTestId('pricing-editor');
    await editor.getByTestId('pricing-new-name').fill('e2e-unsaved-model');
    await editor.getByTestId('pricing-add').click();
    await editor.getByLabel(`e2e-unsaved-model ${t('pricing.ratio')}`).fill('3');

    // Meanwhile another administrator sets the chat link, which this page has not touched.
    expect((await root.put('/api/option/', { key: 'ChatLink', value: 'https://chat.example/other' })).success).toBe(true);

    // Another section is saved: the options are read again.
    await field('sensitive', 'SensitiveWords').fill('forbidden-unsaved-edits');
    await page.getByTestId('save-sensitive').click();
    await saved();
    await expect.poll(() => field('general', 'ChatLink').inputValue()).toBe('https://chat.example/other');
    expect(await field('general', 'TopUpLink').inputValue()).toBe('https://shop.example/typed');
    expect(await editor.getByLabel(`e2e-unsaved-model ${t('pricing.ratio')}`).inputValue()).toBe('3');

    // Each saves what was typed, and only that.
    await page.getByTestId('save-general').click();
    await expect.poll(() => root.option('TopUpLink')).toBe('https://shop.example/typed');
    expect(await root.option('ChatLink')).toBe('https://chat.example/other');
    await page.getByTestId('save-pricing').click();
    await expect.poll(async () => JSON.parse((await root.option('ModelRatio')) ?? '{}') as Record<string, number>).toMatchObject({ 'e2e-unsaved-model': 3 });
    expect(await root.option('SensitiveWords')).toBe('forbidden-unsaved-edits');
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 150_000);
});

describe('the personal tab opened again (en)', () => {
  const t = localeText('settings', 'en');

  it('shows the alert settings only from a fresh answer, never an earlier copy to type into', async () => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language: 'en' });
    await loginAs(page, 'root', '123456', '/setting?tab=personal');
    const webhookUrl = page.getByTestId('personal-budget').getByLabel(t('personal.budget.webhookUrl'), { exact: true });
    await expect.poll(() => webhookUrl.inputValue(), { timeout: 30_000 }).toBe('');
    await page.getByRole('tab', { name: t('tabs.operation') }).click();
    await page.getByTestId('section-general').waitFor();

    // Changed elsewhere (another session of the same user) while the tab was away.
    expect((await root.put('/api/budget/self/alerts', { quota_warning_threshold: null, webhook_url: 'https://hooks.example/fresh' })).success).toBe(true);

    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/api/budget/self',
      async (route) => {
        await released;
        await route.continue();
      },
    );
    await page.getByRole('tab', { name: t('tabs.personal') }).click();
    await page.getByTestId('personal-security').waitFor();
    // The earlier answer (no webhook) must not fill the form: it kept that copy once the fresh one came.
    expect(await webhookUrl.count()).toBe(0);
    release();
    await expect.poll(() => webhookUrl.inputValue(), { timeout: 30_000 }).toBe('https://hooks.example/fresh');
    await page.unrouteAll({ behavior: 'wait' });
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 150_000);
});
