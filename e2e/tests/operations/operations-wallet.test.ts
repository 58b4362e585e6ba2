import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Language, saveScreenshotsInBothThemes } from '../../support/browser.ts';
import { locales } from './locales.ts';
import { buttonName, createWorld, localePattern, waitForToast, type OperationsWorld } from './operations-world.ts';

let world: OperationsWorld;

beforeAll(async () => {
  world = await createWorld();
  // An Epay gateway "at" this server: the payment form is posted to <PayAddress>/submit.php.
  await world.root.setOptions({
    ServerAddress: world.server.url,
    PayAddress: `${world.server.url}/fake-epay`,
    EpayId: '1001',
    EpayKey: 'e2e-epay-key',
    Price: '7.3',
    MinTopUp: '5',
  });
});

afterAll(async () => {
  await world?.close();
});

describe.each<Language>(['en'])('online top-up (%s)', (language) => {
  const text = locales[language].wallet;

  it('checks the minimum, confirms the real price and posts the signed form to the payment page', async () => {
    const { page, context, consoleErrors } = await world.open('/topup', { language });
    const amount = page.getByLabel(text.online.amount, { exact: true });
    await amount.fill('4');
    await page.getByRole('button', { name: buttonName(text.online.alipay) }).click();
    await waitForToast(page, localePattern(text.online.belowMinimum));

    await amount.fill('10');
    await page.getByRole('button', { name: buttonName(text.online.alipay) }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: text.online.confirmTitle });
    // 10 dollars × 7.3 yuan per dollar.
    await dialog.getByText(text.online.yuan.replace('{{value}}', '73.00')).waitFor();
    await saveScreenshotsInBothThemes(page, `ops-wallet-topup-confirm-${language}`);

    const paymentPage = context.waitForEvent('page');
    // The form opens the payment page in a new tab, so the request belongs to the context, not this page.
    const submitted = context.waitForEvent('request', (request) => request.url().endsWith('/fake-epay/submit.php') && request.method() === 'POST');
    await dialog.getByRole('button', { name: buttonName(text.online.confirm) }).click();
    const form = new URLSearchParams((await submitted).postData() ?? '');
    expect(Object.fromEntries(form)).toMatchObject({ pid: '1001', type: 'alipay', money: '73.00', name: 'TUC10' });
    expect(form.get('sign')).toMatch(/^[0-9a-f]{32}$/);
    await (await paymentPage).close();
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});

describe('redemption code link', () => {
  it('offers the configured top-up link to buy codes', async () => {
    await world.root.setOptions({ TopUpLink: `${world.server.url}/about?from=wallet` });
    const { page, context } = await world.open('/topup', { language: 'en' });
    const opened = context.waitForEvent('page');
    await page.getByRole('button', { name: locales.en.wallet.redeem.getCode }).click();
    const shop = await opened;
    await shop.waitForURL('**/about?from=wallet');
    await shop.close();
    await context.close();
  });
});
