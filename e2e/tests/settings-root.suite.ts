import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optionMessages } from '../../packages/server/src/entry/api/option/option.messages.ts';
import type { ApiSession } from '../support/api-session.ts';
import { loginAs, openConsole, saveScreenshotsInBothThemes, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import type { TestServer } from '../support/server.ts';
import { closeFileServer, openFileServer } from '../support/file-server.ts';

let server: TestServer;
let browser: Browser;
let root: ApiSession;

beforeAll(async () => {
  ({ server, browser, root } = await openFileServer());
});

afterAll(() => closeFileServer(server));

export function describeRootSettings(language: Language): void {
  describe(`root settings (${language})`, () => {
    const t = localeText('settings', language);
    let page: Page;
    let close: () => Promise<void>;
    let errors: string[];

    const section = (id: string): Locator => page.getByTestId(`section-${id}`);
    const field = (id: string, key: string): Locator => section(id).getByLabel(t(`fields.${key}`), { exact: true });
    /** The form item around a field, where its own validation message shows. */
    const fieldItem = (id: string, key: string): Locator =>
      section(id)
        .locator('.ant-form-item')
        .filter({ has: page.getByLabel(t(`fields.${key}`), { exact: true }) });
    const toast = (text: string) => page.locator('.ant-message-notice', { hasText: text }).last().waitFor();
    const save = (id: string) => page.getByTestId(`save-${id}`).click();
    const openTab = async (tab: string) => {
      await page.getByRole('tab', { name: t(`tabs.${tab}`) }).click();
      await page.getByRole('tabpanel').getByRole('button').first().waitFor();
    };
    /** Saving an untouched section warns; then a change saves. */
    const unchangedThenSaved = async (id: string, edit: () => Promise<void>) => {
      await save(id);
      await toast(t('messages.nothingChanged'));
      await edit();
      await save(id);
      await toast(t('messages.saved'));
    };

    /** Typing below a field's minimum leaves the minimum once the field loses focus; saving stores it. */
    const belowMinimumBecomes = async (id: string, key: string, typed: string, minimum: string) => {
      const input = field(id, key);
      await input.fill(typed);
      await input.blur();
      await expect.poll(() => input.inputValue()).toBe(minimum);
      await save(id);
      await expect.poll(() => root.option(key)).toBe(minimum);
    };

    beforeAll(async () => {
      const opened = await openConsole(browser, server.url, { language });
      page = opened.page;
      errors = opened.consoleErrors;
      close = () => opened.context.close();
      await loginAs(page, 'root', '123456', '/setting?tab=operation');
      await section('general').waitFor();
    });

    afterAll(async () => {
      expect(errors).toEqual([]);
      await close();
    });

    it('saves each operation section and refuses bad input', async () => {
      await saveScreenshotsInBothThemes(page, `settings-operation-${language}`);
      await unchangedThenSaved('general', () => field('general', 'TopUpLink').fill(`https://shop.example/${language}`));
      expect(await root.option('TopUpLink')).toBe(`https://shop.example/${language}`);
      await unchangedThenSaved('drawing', () => field('drawing', 'MjNotifyEnabled').click());
      await unchangedThenSaved('sensitive', () => field('sensitive', 'SensitiveWords').fill(`forbidden-${language}`));
      expect(await root.option('SensitiveWords')).toBe(`forbidden-${language}`);
      await unchangedThenSaved('logs', () => field('logs', 'LogConsumeEnabled').click());
      // Days to keep logs (our addition): an integer, 0 keeps them forever, nothing below 0.
      expect(await root.option('LogRetentionDays')).toBe('0');
      await field('logs', 'LogRetentionDays').fill(language === 'zh' ? '30' : '45');
      await save('logs');
      await toast(t('messages.saved'));
      await expect.poll(() => root.option('LogRetentionDays')).toBe(language === 'zh' ? '30' : '45');
      await belowMinimumBecomes('logs', 'LogRetentionDays', '-7', '0');
      await unchangedThenSaved('dashboard', () => field('dashboard', 'DataExportInterval').fill(language === 'zh' ? '7' : '8'));
      // Numbers below their minimum are pulled back to it when the field is left (interval ≥ 1 minute, counts ≥ 0).
      await belowMinimumBecomes('dashboard', 'DataExportInterval', '0', '1');
      await belowMinimumBecomes('general', 'RetryTimes', '-3', '0');
      await unchangedThenSaved('monitoring', () => field('monitoring', 'QuotaRemindThreshold').fill(language === 'zh' ? '1000' : '2000'));
      await belowMinimumBecomes('monitoring', 'QuotaRemindThreshold', '-1', '0');
      await unchangedThenSaved('quota', () => field('quota', 'QuotaForNewUser').fill(language === 'zh' ? '111' : '222'));
      await belowMinimumBecomes('quota', 'PreConsumedQuota', '-500', '0');
      expect(await root.option('QuotaForNewUser')).toBe(language === 'zh' ? '111' : '222');

      const jsonFields = [
        ['chats', 'Chats'],
        ['groups', 'GroupRatio'],
        ['groups', 'UserUsableGroups'],
        ['modelRatioJson', 'ModelPrice'],
        ['modelRatioJson', 'ModelRatio'],
        ['modelRatioJson', 'CompletionRatio'],
      ] as const;
      for (const [id, key] of jsonFields) {
        const input = field(id, key);
        const original = await input.inputValue();
        await input.fill('{ not json');
        await input.blur();
        const problem = fieldItem(id, key).getByText(t('messages.invalidJson'));
        await problem.waitFor();
        await save(id);
        await toast(t('messages.checkInput'));
        await input.fill(original);
        await input.blur();
        await problem.waitFor({ state: 'hidden' });
      }
      await field('groups', 'GroupRatio').fill(JSON.stringify({ default: 1, vip: 1, svip: 1, [language]: 2 }, null, 2));
      await save('groups');
      await toast(t('messages.saved'));
      expect(JSON.parse((await root.option('GroupRatio')) ?? '{}')).toMatchObject({ [language]: 2 });
    });

    it('purges logs only with a chosen time, and says how many went', async () => {
      await section('logs').locator('.ant-picker-clear').click({ force: true });
      await page.getByTestId('purge-logs').click();
      await toast(t('logs.chooseTime'));

      // A redeemed code writes a top-up log, so there is something to purge.
      const codes = await root.post<string[]>('/api/redemption/', { name: `purge-${language}`, quota: 1000, count: 1 });
      expect((await root.post('/api/user/topup', { key: codes.data[0] })).success).toBe(true);
      const logCount = async () => (await root.get<{ total: number }>('/api/log/?p=1&page_size=10&type=0')).data.total;
      await expect.poll(logCount).toBeGreaterThan(0);
      const tomorrow = new Date(Date.now() + 86_400_000);
      const two = (value: number) => String(value).padStart(2, '0');
      const typed = `${tomorrow.getFullYear()}-${two(tomorrow.getMonth() + 1)}-${two(tomorrow.getDate())} 12:00:00`;
      const picker = section('logs').locator('.ant-picker input');
      await picker.click();
      await picker.fill(typed);
      await picker.press('Enter');
      await expect.poll(() => picker.inputValue()).toBe(typed);
      const purged = page.waitForResponse((response) => response.url().includes('/api/log/?') && response.request().method() === 'DELETE');
      await page.getByTestId('purge-logs').click();
      await page.locator('.ant-popover:visible .ant-btn-primary').click();
      const answer = (await (await purged).json()) as { success: boolean; data: number };
      expect(answer.success).toBe(true);
      expect(answer.data).toBeGreaterThan(0);
      await toast(t('logs.purged', { count: answer.data }));
      expect(await logCount()).toBe(0);
    });

    it('edits model pricing visually with duplicate and numeric checks', async () => {
      await page.getByRole('tab', { name: t('pricing.visualTab') }).click();
      const editor = page.getByTestId('pricing-editor');
      await editor.getByTestId('pricing-new-name').fill('gpt-4o');
      await editor.getByTestId('pricing-add').click();
      await toast(t('pricing.duplicate'));
      const model = `e2e-model-${language}`;
      await editor.getByTestId('pricing-new-name').fill(model);
      await editor.getByTestId('pricing-add').click();
      await editor.getByLabel(`${model} ${t('pricing.ratio')}`).fill('abc');
      await page.getByTestId('save-pricing').click();
      await toast(t('pricing.notNumber'));
      await editor.getByLabel(`${model} ${t('pricing.ratio')}`).fill('3');
      await editor.getByLabel(`${model} ${t('pricing.price')}`).fill('0.02');
      expect(await editor.getByLabel(`${model} ${t('pricing.ratio')}`).isDisabled()).toBe(true);
      await saveScreenshotsInBothThemes(page, `settings-pricing-${language}`);
      await page.getByTestId('save-pricing').click();
      await toast(t('messages.saved'));
      expect(JSON.parse((await root.option('ModelPrice')) ?? '{}')).toMatchObject({ [model]: 0.02 });
      expect(JSON.parse((await root.option('ModelRatio')) ?? '{}')[model]).toBeUndefined();

      // An edit not yet saved here survives a price stored elsewhere meanwhile (another administrator): the
      // table takes the other model's new ratio, once the page reads the options again, and keeps this edit.
      await editor.getByLabel(t('pricing.search')).fill('e2e-');
      await editor.getByLabel(`${model} ${t('pricing.price')}`).fill('0.03');
      const other = `e2e-other-${language}`;
      const ratios = JSON.parse((await root.option('ModelRatio')) ?? '{}') as Record<string, number>;
      expect((await root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ ...ratios, [other]: 7 }) })).success).toBe(true);
      // Saving another section reads every option again.
      await field('general', 'TopUpLink').fill(`https://shop.example/${language}/prices`);
      await save('general');
      await expect.poll(() => root.option('TopUpLink')).toBe(`https://shop.example/${language}/prices`);
      await expect.poll(() => editor.getByLabel(`${other} ${t('pricing.ratio')}`).inputValue()).toBe('7');
      expect(await editor.getByLabel(`${model} ${t('pricing.price')}`).inputValue()).toBe('0.03');
      await page.getByTestId('save-pricing').click();
      await expect.poll(async () => JSON.parse((await root.option('ModelPrice')) ?? '{}')[model]).toBe(0.03);
      expect(JSON.parse((await root.option('ModelRatio')) ?? '{}')).toMatchObject({ [other]: 7 });
    });

    it('saves each system section and refuses bad input', async () => {
      await openTab('system');
      await section('payment').waitFor();
      await saveScreenshotsInBothThemes(page, `settings-system-${language}`);
      if (!(await root.option('ServerAddress'))) {
        await field('payment', 'EpayId').fill('merchant');
        await save('payment');
        await toast(t('messages.serverAddressFirst'));
      }
      await field('serverAddress', 'ServerAddress').fill(`http://127.0.0.1:3000/${language}/`);
      await save('serverAddress');
      await toast(t('messages.saved'));
      expect(await root.option('ServerAddress')).toBe(`http://127.0.0.1:3000/${language}`);
      await field('payment', 'TopupGroupRatio').fill('');
      await save('payment');
      await toast(t('messages.topupGroupRatioInvalid'));
      await field('payment', 'TopupGroupRatio').fill('{"default": 1}');
      await field('payment', 'Price').fill('7.5');
      await save('payment');
      await toast(t('messages.saved'));
      // Polled: the toast found can be the previous section's, still shown while this save is under way.
      await expect.poll(() => root.option('Price')).toBe('7.5');

      await unchangedThenSaved('worker', () => field('worker', 'WorkerUrl').fill(`https://worker.example/${language}/`));
      expect(await root.option('WorkerUrl')).toBe(`https://worker.example/${language}`);

      // Turning password login off asks first; cancelling keeps it on.
      await field('loginSwitches', 'PasswordLoginEnabled').click();
      await save('loginSwitches');
      await page.locator('.ant-modal-confirm-title', { hasText: t('messages.disablePasswordLoginTitle') }).waitFor();
      // A click that lands while the dialog is still opening can be lost on a loaded machine (the dialog then
      // stays and covers the page), so Cancel is pressed until the dialog is gone.
      const confirm = page.locator('.ant-modal-confirm');
      await expect
        .poll(async () => {
          if (await confirm.isVisible())
            await confirm
              .getByRole('button')
              .first()
              .click({ timeout: 2_000 })
              .catch(() => undefined);
          return confirm.isVisible();
        })
        .toBe(false);
      await field('loginSwitches', 'PasswordLoginEnabled').click();
      // Enabling Turnstile without its secret configured is refused by the server, with its message.
      await field('loginSwitches', 'TurnstileCheckEnabled').click();
      await save('loginSwitches');
      await page.locator('.ant-message-error').last().waitFor();
      expect(await root.option('TurnstileCheckEnabled')).toBe('false');
      await field('loginSwitches', 'TurnstileCheckEnabled').click();
      // So are GitHub and WeChat login, each with the spec's message in the console's language.
      for (const [key, refusal] of [
        ['GitHubOAuthEnabled', optionMessages.gitHubNeedsConfig],
        ['WeChatAuthEnabled', optionMessages.weChatNeedsConfig],
      ] as const) {
        await field('loginSwitches', key).click();
        await save('loginSwitches');
        await page.locator('.ant-message-error', { hasText: refusal[language] }).last().waitFor();
        expect(await root.option(key)).toBe('false');
        await field('loginSwitches', key).click();
      }

      await unchangedThenSaved('emailDomain', () => field('emailDomain', 'EmailDomainWhitelist').fill(`example.${language}`));
      await unchangedThenSaved('smtp', () => field('smtp', 'SMTPServer').fill(`smtp.${language}.example`));
      // Port 465 speaks SSL from the first byte: saving that port stores SSL on, whatever the switch says.
      expect(await root.option('SMTPSSLEnabled')).toBe('false');
      await field('smtp', 'SMTPPort').fill('465');
      await save('smtp');
      await expect.poll(() => root.option('SMTPSSLEnabled')).toBe('true');
      expect(await root.option('SMTPPort')).toBe('465');
      await unchangedThenSaved('github', async () => {
        await field('github', 'GitHubClientId').fill(`client-${language}`);
        await field('github', 'GitHubClientSecret').fill('secret-value');
      });
      expect(await root.option('GitHubClientSecret')).toBeUndefined();
      await unchangedThenSaved('wechat', () => field('wechat', 'WeChatServerAddress').fill(`https://wechat.example/${language}/`));
      await unchangedThenSaved('telegram', () => field('telegram', 'TelegramBotName').fill(`bot_${language}`));
      await unchangedThenSaved('turnstile', () => field('turnstile', 'TurnstileSiteKey').fill(`site-${language}`));
      await unchangedThenSaved('linuxdo', () => field('linuxdo', 'LinuxDOClientId').fill(`linuxdo-${language}`));

      // The outgoing-request policy (new-api's fetch_setting): a bad list entry is refused with the reason, a good one saved.
      await field('fetchPolicy', 'fetch_setting.ip_list').fill('["10.0.0.0/33"]');
      await save('fetchPolicy');
      await page.locator('.ant-message-error', { hasText: '10.0.0.0/33' }).last().waitFor();
      expect(await root.option('fetch_setting.ip_list')).toBe('[]');
      await field('fetchPolicy', 'fetch_setting.ip_list').fill('["10.20.0.0/16"]');
      await field('fetchPolicy', 'fetch_setting.ip_filter_mode').click();
      await save('fetchPolicy');
      await toast(t('messages.saved'));
      await expect
        .poll(async () => [await root.option('fetch_setting.ip_list'), await root.option('fetch_setting.ip_filter_mode')])
        .toEqual(['["10.20.0.0/16"]', 'true']);
      // Back to the defaults: the other language's run starts from them.
      await field('fetchPolicy', 'fetch_setting.ip_list').fill('[]');
      await field('fetchPolicy', 'fetch_setting.ip_filter_mode').click();
      await save('fetchPolicy');
      await expect.poll(() => root.option('fetch_setting.ip_filter_mode')).toBe('false');
    });

    it('saves each other section', async () => {
      await openTab('other');
      await section('notice').waitFor();
      await saveScreenshotsInBothThemes(page, `settings-other-${language}`);
      await unchangedThenSaved('notice', () => field('notice', 'Notice').fill(`Notice ${language}`));
      await unchangedThenSaved('systemName', () => field('systemName', 'SystemName').fill(`Gateway ${language}`));
      await page.getByTestId('system-name').getByText(`Gateway ${language}`).waitFor();
      await unchangedThenSaved('logo', () => field('logo', 'Logo').fill('/logo.svg?custom'));
      await unchangedThenSaved('homePage', () => field('homePage', 'HomePageContent').fill(`# Welcome ${language}`));
      await unchangedThenSaved('about', () => field('about', 'About').fill(`About ${language}`));
      await unchangedThenSaved('footer', () => field('footer', 'Footer').fill(`<b>Footer ${language}</b><script>alert(1)</script>`));
      await page
        .getByTestId('site-footer')
        .locator('b', { hasText: `Footer ${language}` })
        .waitFor();
      expect(await page.getByTestId('site-footer').locator('script').count()).toBe(0);
    });
  });
}
