import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginApi, type ApiSession } from '../support/api-session.ts';
import { closeFileContexts, workerBrowser, loginAs, openConsole, saveScreenshot, saveScreenshotsInBothThemes, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { startSmtpCatcher } from '../support/smtp-catcher.ts';

let server: TestServer;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
let root: ApiSession;

beforeAll(async () => {
  [server, browser, smtp] = await Promise.all([startServer(), workerBrowser(), startSmtpCatcher()]);
  root = await loginApi(server.url, 'root', '123456');
  await root.setOptions({
    SMTPServer: '127.0.0.1',
    SMTPPort: String(smtp.port),
    SMTPAccount: 'mailer@gateway.test',
    SMTPFrom: 'mailer@gateway.test',
    SMTPToken: 'smtp-password',
    QuotaForInviter: '1000000',
    QuotaPerUnit: '500000',
  });
});

afterAll(async () => {
  await closeFileContexts();
  await server?.stop();
  await smtp?.close();
});

/** A fresh ordinary user who invited one person (so there are invitation earnings to transfer). */
async function createInviter(name: string): Promise<void> {
  const created = await root.post('/api/user/', { username: name, password: 'password123', display_name: name });
  expect(created.success).toBe(true);
  const inviter = await loginApi(server.url, name, 'password123');
  const code = (await inviter.get<string>('/api/user/aff')).data;
  const invitee = await fetch(`${server.url}/api/user/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: `${name}i`, password: 'password123', password2: 'password123', aff_code: code }),
  });
  expect(((await invitee.json()) as { success: boolean }).success).toBe(true);
}

describe.each<Language>(['zh'])('personal settings (%s)', (language: Language) => {
  const t = localeText('settings', language);
  const common = localeText('common', language);
  const users = localeText('users', language);

  it('shows balance, models, invitation and bindings, transfers earnings, binds an e-mail and manages the account', async () => {
    const name = `me${language}${Date.now() % 10000}`;
    // A model the user's group may call, so the models card has a chip to copy (the channel is never called).
    const model = `e2e-chip-${language}`;
    const channel = await root.post('/api/channel/', {
      mode: 'single',
      channel: { type: 1, name: `chip-${language}`, key: 'sk-chip', base_url: 'http://127.0.0.1:9', models: model, group: 'default' },
    });
    expect(channel.success).toBe(true);
    await createInviter(name);
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await loginAs(page, name, 'password123', '/setting');
    await page.getByTestId('personal-overview').getByText(t('personal.balance')).waitFor();
    await page.getByTestId('personal-overview').getByText(common('role.common')).waitFor();
    await expect.poll(() => page.getByTestId('invite-link').inputValue()).toContain('/register?aff=');

    // Models: the first ten, then the expander; a click copies the name, and so do Enter and Space on a chip reached from the keyboard.
    const models = page.getByTestId('personal-models');
    const expander = page.getByTestId('models-expander');
    if (await expander.count()) {
      expect(await models.locator('.ant-tag').count()).toBe(10);
      await expander.click();
      expect(await models.locator('.ant-tag').count()).toBeGreaterThan(10);
    }
    const chip = models.getByRole('button', { name: model, exact: true });
    await chip.click();
    await page.locator('.ant-message-success').last().waitFor();
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await chip.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(model);
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.keyboard.press('Space');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(model);

    // Invitation earnings: below the minimum is refused, the minimum moves to the balance.
    await page.getByTestId('open-transfer').click();
    const transfer = page.getByRole('dialog', { name: t('personal.transfer') });
    await transfer.getByRole('spinbutton').fill('1000');
    await transfer.getByRole('button', { name: common('actions.confirm') }).click();
    await page.getByText(t('personal.transferMinimum', { amount: '$1.00' })).waitFor();
    await transfer.getByRole('spinbutton').fill('500000');
    await transfer.getByRole('button', { name: common('actions.confirm') }).click();
    await transfer.waitFor({ state: 'hidden' });

    // E-mail binding with the 30 s code.
    await page.getByTestId('bind-email-open').click();
    await page.getByTestId('send-code').click();
    await page.getByText(t('bindings.emailRequired')).waitFor();
    const email = `${name}@mail.test`;
    await page.getByTestId('bind-email').fill(email);
    await page.getByTestId('send-code').click();
    await page.getByText(t('bindings.codeSent')).waitFor();
    const code = /<strong>(\d{6})<\/strong>/.exec(smtp.lastTo(email)?.text ?? '')?.[1] ?? '';
    await page.getByTestId('bind-email-code').fill(code);
    await page
      .getByRole('dialog', { name: t('bindings.bindEmail') })
      .getByRole('button', { name: common('actions.confirm') })
      .click();
    await page.getByTestId('binding-email').getByText(email).waitFor();
    await page.getByTestId('bind-email-open').getByText(t('bindings.change')).waitFor();

    // System access token.
    await page.getByTestId('generate-access-token').click();
    await page.getByText(t('security.tokenCopied')).waitFor();
    expect((await page.getByTestId('access-token').innerText()).trim().length).toBeGreaterThan(10);
    await saveScreenshotsInBothThemes(page, `settings-personal-${language}`);

    // Password: mismatch refused, a wrong current password refused by the server, then changed.
    await page.getByTestId('open-change-password').click();
    const passwordDialog = page.getByRole('dialog', { name: t('security.changePassword') });
    await passwordDialog.getByLabel(t('security.currentPassword'), { exact: true }).fill('not-my-password');
    await passwordDialog.getByLabel(t('security.newPassword'), { exact: true }).fill('newpassword1');
    await passwordDialog.getByLabel(t('security.confirmPassword'), { exact: true }).fill('newpassword2');
    await passwordDialog.getByRole('button', { name: common('actions.confirm') }).click();
    await passwordDialog.getByText(t('security.passwordMismatch')).waitFor();
    await passwordDialog.getByLabel(t('security.confirmPassword'), { exact: true }).fill('newpassword1');
    await passwordDialog.getByRole('button', { name: common('actions.confirm') }).click();
    await page.getByText(language === 'zh' ? '原密码错误' : 'The current password is incorrect').waitFor();
    await passwordDialog.getByLabel(t('security.currentPassword'), { exact: true }).fill('password123');
    await passwordDialog.getByRole('button', { name: common('actions.confirm') }).click();
    await page.getByText(t('security.passwordChanged')).waitFor();
    await loginApi(server.url, name, 'newpassword1');

    // Profile: the display name is edited on /user/edit, which leads back to the settings.
    await page.getByTestId('edit-profile').click();
    await page.waitForURL('**/user/edit');
    const profile = page.getByTestId('user-edit-form');
    await expect.poll(() => profile.getByLabel(users('form.username'), { exact: true }).inputValue()).toBe(name);
    await profile.getByLabel(users('form.displayName')).fill(`Shown ${language}`);
    await page.getByTestId('edit-user-submit').click();
    await page.waitForURL('**/setting');
    await page
      .getByTestId('personal-overview')
      .getByRole('heading', { name: `Shown ${language}` })
      .waitFor();

    // Delete: the typed name must match.
    await page.getByTestId('open-delete-account').click();
    const deleteDialog = page.getByRole('dialog', { name: t('security.deleteAccount') });
    await page.getByTestId('delete-confirm-name').fill('someone-else');
    await deleteDialog.getByRole('button', { name: common('actions.confirm') }).click();
    await page.getByText(t('security.typeUsername')).waitFor();
    await page.getByTestId('delete-confirm-name').fill(name);
    await deleteDialog.getByRole('button', { name: common('actions.confirm') }).click();
    await page.waitForURL('**/login');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it.each(['light', 'dark'] as const)('shows the personal tab on a phone (%s theme)', async (theme) => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language, theme, width: 390 });
    await loginAs(page, 'root', '123456', '/setting');
    await page.getByTestId('personal-overview').waitFor();
    expect(await page.getByTestId('side-menu').count()).toBe(0);
    await saveScreenshot(page, `settings-personal-mobile-${language}-${theme}`);
    await page.getByTestId('open-side-menu').click();
    await page.getByTestId('side-menu').getByText(common('menu.token')).click();
    await page.waitForURL('**/token');
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
