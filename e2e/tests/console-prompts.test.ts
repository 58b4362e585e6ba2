import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userMessages } from '../../packages/server/src/entry/api/user/user.messages.ts';
import { openDatabase } from '../../packages/server/src/core/platform/database.ts';
import { loginApi, type ApiSession } from '../support/api-session.ts';
import { loginAs, openConsole, savePhoneScreenshot, saveScreenshot, saveScreenshotsInBothThemes, type Language } from '../support/browser.ts';
import { fakeWebPage, keepTrafficLocal } from '../support/local-frames.ts';
import { localeText } from '../support/locales.ts';
import type { TestServer } from '../support/server.ts';
import { buttonName, waitForToast } from './operations/operations-world.ts';
import { closeFileServer, openFileServer } from '../support/file-server.ts';

/**
 * Three places where the console stops an operator before a mistake (issue 36): a chat link that
 * would hand the API key to another site asks first, naming the host, and can be told not to ask
 * again for it; the models page tags a model callers would be refused for lack of a price, with "Set
 * a price" beside it; root on the default password is offered "Change now", which opens the password
 * change (asking for the current one) in view at once.
 *
 * The server runs on a database that counts as set up but whose root still has new-api's default
 * password, as one moved over from one-api does (Switchboard's own first start sends root to the
 * setup, which replaces that password, so the warning would never come).
 */
const language: Language = 'zh';
const defaultPassword = '123456';
let folder: string;
let server: TestServer;
let browser: Browser;
let root: ApiSession;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'switchboard-prompts-'));
  const path = join(folder, 'switchboard.db');
  ({ server, browser, root } = await openFileServer({ env: { SQLITE_PATH: path } }));
  // No `setups` row is a database from before the setup existed: in use already (api/setup/setup.repository.ts).
  const database = await openDatabase('', path);
  try {
    await database.db.deleteFrom('setups').execute();
  } finally {
    await database.close();
  }
});

afterAll(async () => {
  await closeFileServer(server);
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** A root console page on `path` (logged in through the API, so without the login page's warnings). */
async function openAsRoot(path: string) {
  const opened = await openConsole(browser, server.url, { language, width: 1440 });
  // Several screens, each loading its own chunk: on a busy machine the first paint of one can take a while.
  opened.context.setDefaultTimeout(30_000);
  await loginAs(opened.page, 'root', defaultPassword, path);
  return opened;
}

describe(`a chat link that carries the key to another site (${language})`, () => {
  const common = localeText('common', language);
  const tokens = localeText('tokens', language);
  // Another port is another host (the key would leave this console's origin); the browser routes
  // answer it locally, so nothing leaves the machine.
  const outsideHost = '127.0.0.1:8999';
  const outsidePath = '/outside-chat/';
  const tokenName = 'outside-chat';

  beforeAll(async () => {
    await root.setOptions({ Chats: JSON.stringify([{ 'Outside Chat': `http://${outsideHost}${outsidePath}?key={key}&address={address}` }]) });
    expect((await root.post('/api/token/', { name: tokenName, unlimited_quota: true })).success).toBe(true);
  });

  it('asks before sending the key, naming the host, and stops asking for that host once told', { timeout: 120_000 }, async () => {
    const { page, context, consoleErrors } = await openAsRoot('/chat/0');
    await keepTrafficLocal(context);
    const outside = await fakeWebPage(context, outsidePath, 'outside chat');

    // The chat page that would frame the site asks on the page itself.
    await page.locator('.ant-result-title', { hasText: common('keyLeaving.title', { host: outsideHost }) }).waitFor();
    await page
      .getByTestId('key-leaving-warning')
      .getByText(common('keyLeaving.body', { host: outsideHost }))
      .waitFor();
    expect(await page.getByTestId('chat-frame').count()).toBe(0);
    await saveScreenshotsInBothThemes(page, `key-leaving-page-${language}`);
    await savePhoneScreenshot(page, `key-leaving-page-${language}-390`);

    // The token list's Chat button asks in a dialog; No sends nothing.
    await page.goto('/token');
    const row = page.locator('tr.ant-table-row', { hasText: tokenName });
    const chat = row.getByRole('button', { name: buttonName(tokens('actions.chat')) });
    const dialog = page.locator('.ant-modal-confirm', { hasText: common('keyLeaving.title', { host: outsideHost }) });
    await chat.click();
    await dialog
      .getByTestId('key-leaving-warning')
      .getByText(common('keyLeaving.body', { host: outsideHost }))
      .waitFor();
    await saveScreenshotsInBothThemes(page, `key-leaving-dialog-${language}`);
    await savePhoneScreenshot(page, `key-leaving-dialog-${language}-390`);
    await dialog.getByRole('button', { name: buttonName(common('keyLeaving.cancel')) }).click();
    await dialog.waitFor({ state: 'detached' });

    // Yes, and don't ask again for this host: the site opens with the key.
    await chat.click();
    await dialog.getByRole('checkbox', { name: common('keyLeaving.dontAskAgain', { host: outsideHost }) }).check();
    const firstPopup = context.waitForEvent('page');
    await dialog.getByRole('button', { name: buttonName(common('keyLeaving.open')) }).click();
    const popup = await firstPopup;
    await expect.poll(() => outside.requests.length).toBeGreaterThan(0);
    await popup.close();
    // One request only: the cancelled question opened nothing.
    expect(outside.requests).toHaveLength(1);
    const sentKey = outside.requests[0]?.searchParams.get('key') ?? '';
    expect(sentKey).toMatch(/^sk-\w+$/);
    expect(outside.requests[0]?.host).toBe(outsideHost);

    // Asked no more, from the button or the chat page.
    const secondPopup = context.waitForEvent('page');
    await chat.click();
    const again = await secondPopup;
    await expect.poll(() => outside.requests.length).toBe(2);
    await again.close();
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
    await page.goto('/chat/0');
    const frame = page.getByTestId('chat-frame');
    await frame.waitFor();
    expect(new URL((await frame.getAttribute('src')) ?? '').host).toBe(outsideHost);
    await expect.poll(() => outside.requests.length).toBe(3);
    expect(outside.requests.map((request) => request.searchParams.get('key'))).toEqual([sentKey, sentKey, sentKey]);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

describe(`an unpriced model on the models page (${language})`, () => {
  const common = localeText('common', language);
  const settings = localeText('settings', language);
  const unpriced = 'house-unpriced-7b';
  const priced = 'gpt-4o-mini';

  beforeAll(async () => {
    const channel = { type: 1, name: 'house', key: 'sk-house', base_url: 'http://127.0.0.1:9', models: `${unpriced},${priced}`, group: 'default' };
    expect((await root.post('/api/channel/', { mode: 'single', channel })).success).toBe(true);
    for (const model of [unpriced, priced]) expect((await root.post('/api/models/', { model_name: model, status: 1 })).success).toBe(true);
  });

  /** The name cell of a model's row. */
  const rowOf = (page: Page, model: string) => page.locator('tr.ant-table-row', { has: page.getByText(model, { exact: true }) });

  it('tags it with Set a price beside it, which opens the price editor on it; once priced the tag is gone', { timeout: 120_000 }, async () => {
    const { page, context, consoleErrors } = await openAsRoot('/models');
    const tag = rowOf(page, unpriced).locator(`[data-testid="unpriced-model"][data-model="${unpriced}"]`);
    await tag.getByText(common('unpriced.tag'), { exact: true }).waitFor();
    // A model that has a price (a default one) is not tagged.
    await rowOf(page, priced).waitFor();
    expect(await rowOf(page, priced).getByTestId('unpriced-model').count()).toBe(0);
    await tag.getByText(common('unpriced.tag'), { exact: true }).hover();
    await page.locator('.ant-tooltip', { hasText: common('unpriced.tooltip', { model: unpriced }) }).waitFor();
    await saveScreenshotsInBothThemes(page, `unpriced-models-page-${language}`);
    await savePhoneScreenshot(page, `unpriced-models-page-${language}-390`);

    await tag.getByRole('link', { name: common('unpriced.setPrice') }).click();
    await page.waitForURL((url) => url.pathname === '/setting' && url.searchParams.get('tab') === 'operation' && url.searchParams.get('price') === unpriced);
    const price = page.getByLabel(`${unpriced} ${settings('pricing.price')}`);
    await expect.poll(() => price.evaluate((input) => input === document.activeElement), { timeout: 30_000 }).toBe(true);
    await saveScreenshot(page, `unpriced-models-set-price-${language}`);
    await price.fill('0.004');
    await page
      .getByTestId('pricing-editor')
      .getByRole('button', { name: buttonName(settings('pricing.save')) })
      .click();
    await waitForToast(page, settings('messages.saved'));
    expect((await root.get<{ models: string[] }>(`/api/pricing/unpriced?models=${unpriced}`)).data.models).toEqual([]);

    await page.goto('/models');
    await rowOf(page, unpriced).waitFor();
    expect(await rowOf(page, unpriced).getByTestId('unpriced-model').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

// Last: it changes root's password.
describe(`the default-password warning's Change now (${language})`, () => {
  const auth = localeText('auth', language);
  const settings = localeText('settings', language);
  const newPassword = 'changed-root-pass';

  it('opens the password change in view, which asks for the current password', { timeout: 120_000 }, async () => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language, width: 1440 });
    context.setDefaultTimeout(30_000);
    await page.goto('/login');
    await page.getByLabel(auth('login.username')).fill('root');
    await page.getByLabel(auth('login.password'), { exact: true }).fill(defaultPassword);
    await page
      .getByTestId('auth-card')
      .getByRole('button', { name: buttonName(auth('login.submit')) })
      .click();
    const warning = page.locator('.ant-modal-confirm', { hasText: auth('defaultPassword.title') });
    await warning.getByText(auth('defaultPassword.content')).waitFor();
    expect(new URL(page.url()).pathname).toBe('/token');
    await saveScreenshotsInBothThemes(page, `change-now-warning-${language}`);
    await warning.getByRole('button', { name: buttonName(auth('defaultPassword.change')) }).click();

    await page.waitForURL((url) => url.pathname === '/setting' && url.searchParams.get('tab') === 'personal');
    const dialog = page.getByRole('dialog', { name: settings('security.changePassword') });
    const current = dialog.getByLabel(settings('security.currentPassword'));
    await expect.poll(() => current.evaluate((input) => input === document.activeElement)).toBe(true);
    // In view where the operator is, not somewhere up or down the long settings page.
    const box = await dialog.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport && box.y >= 0 && box.y + box.height <= viewport.height).toBe(true);
    await saveScreenshotsInBothThemes(page, `change-now-dialog-${language}`);
    await savePhoneScreenshot(page, `change-now-dialog-${language}-390`);

    const submit = () => dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await dialog.getByLabel(settings('security.newPassword'), { exact: true }).fill(newPassword);
    await dialog.getByLabel(settings('security.confirmPassword')).fill(newPassword);
    // The current password is checked by the server: a wrong one changes nothing.
    await current.fill('not-the-password');
    await submit();
    await page.locator('.ant-message-notice', { hasText: userMessages.originalPasswordWrong[language] }).waitFor();
    await current.fill(defaultPassword);
    await submit();
    await waitForToast(page, settings('security.passwordChanged'));
    await dialog.waitFor({ state: 'hidden' });
    await expect(loginApi(server.url, 'root', defaultPassword)).rejects.toThrow(/login as root failed/);
    root = await loginApi(server.url, 'root', newPassword);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
