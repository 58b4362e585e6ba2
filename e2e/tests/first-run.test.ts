import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeOpenAIUpstream } from '../../packages/server/src/entry/relay/testing/fake-openai-upstream.ts';
import {
  closeFileContexts,
  workerBrowser,
  openConsole,
  savePhoneScreenshot,
  saveScreenshot,
  saveScreenshotsInBothThemes,
  type Language,
} from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { buttonName, waitForToast } from './operations/operations-world.ts';

/**
 * From an empty database to the gateway's first answered call, following only what the console shows:
 * root logs in with the first start's password and is taken to the setup (new password, use mode,
 * first channel on a fake OpenAI upstream), the home page's checklist sends them to make a token and
 * gives a curl with this server's address and the key, which the test runs as an operator would paste
 * it; once the call is answered the checklist is gone.
 */
let browser: Browser;
let upstream: FakeOpenAIUpstream;

beforeAll(async () => {
  upstream = new FakeOpenAIUpstream();
  [browser] = await Promise.all([workerBrowser(), upstream.start()]);
});

afterAll(async () => {
  await closeFileContexts();
  await upstream?.stop();
});

/** The curl the checklist shows, run as a terminal would: its URL, headers and body. */
async function runCurl(curl: string): Promise<Response> {
  const url = /curl (\S+)/.exec(curl)?.[1] ?? '';
  const headers = Object.fromEntries([...curl.matchAll(/-H "([^:]+): ([^"]+)"/g)].map((match) => [match[1] ?? '', match[2] ?? '']));
  const body = /-d '(.+)'/.exec(curl)?.[1] ?? '';
  return fetch(url, { method: 'POST', headers, body });
}

// One language, as every flow: the other is covered by the language smoke pass (language-smoke.test.ts) and the locale check.
describe.each(['zh'] as const)('first run (%s)', (language: Language) => {
  const auth = localeText('auth', language);
  const setup = localeText('setup', language);
  const tokens = localeText('tokens', language);
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.stop());

  it('takes root from an empty database to a first answered call', { timeout: 240_000 }, async () => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language, width: 1440 });
    // A long walk through many screens, each loading its own chunk: on a busy machine the first paint of one can take a while.
    context.setDefaultTimeout(30_000);
    await page.goto('/login');
    await page.getByRole('heading', { name: auth('login.title') }).waitFor({ timeout: 30_000 });
    await saveScreenshot(page, `first-run-login-${language}`);
    await page.getByLabel(auth('login.username')).fill('root');
    await page.getByLabel(auth('login.password'), { exact: true }).fill('123456');
    await page
      .getByTestId('auth-card')
      .getByRole('button', { name: auth('login.submit'), exact: true })
      .click();

    // 1. The setup: a new password for root.
    await page.waitForURL('**/setup');
    await page.getByTestId('setup-password').waitFor();
    await saveScreenshotsInBothThemes(page, `first-run-setup-account-${language}`);
    await savePhoneScreenshot(page, `first-run-setup-account-${language}-390`);
    await page.getByTestId('setup-password').fill('short');
    await page.getByTestId('setup-confirm-password').fill('short');
    await page.getByTestId('setup-next').click();
    await page.getByText(setup('account.passwordRule')).waitFor();
    await page.getByTestId('setup-password').fill('first-run-secret');
    await page.getByTestId('setup-confirm-password').fill('first-run-secret');
    await page.getByTestId('setup-next').click();

    // 2. The use mode: an operator's gateway, where every model needs a price.
    await page.getByTestId('setup-mode-operator').click();
    await saveScreenshotsInBothThemes(page, `first-run-setup-mode-${language}`);
    await page.getByTestId('setup-next').click();
    await waitForToast(page, setup('saved'));

    // 3. The first channel, on the fake upstream, serving a model the default prices cover.
    await page.getByTestId('setup-channel-base-url').fill(upstream.baseUrl);
    await page.getByTestId('setup-channel-key').fill('sk-first-run-upstream');
    await page.getByTestId('setup-channel-models').fill('gpt-4o-mini');
    await saveScreenshotsInBothThemes(page, `first-run-setup-channel-${language}`);
    await page.getByTestId('setup-next').click();
    await page.waitForURL((url) => url.pathname === '/');

    // The checklist: the channel is there, a token is not yet.
    const checklist = page.getByTestId('first-call-checklist');
    await checklist.waitFor();
    await expect.poll(() => page.getByTestId('checklist-channel').getAttribute('data-done'), { timeout: 30_000 }).toBe('true');
    expect(await page.getByTestId('checklist-token').getAttribute('data-done')).toBe('false');
    expect(await page.getByTestId('checklist-setup').count()).toBe(0);
    await saveScreenshotsInBothThemes(page, `first-run-checklist-${language}`);
    await savePhoneScreenshot(page, `first-run-checklist-${language}-390`);

    // Make a token where the checklist says.
    await page
      .getByTestId('checklist-token')
      .getByRole('link', { name: setup('checklist.tokenAction') })
      .click();
    await page.waitForURL('**/token');
    await page.getByText(tokens('warning')).waitFor();
    await page.getByRole('button', { name: buttonName(tokens('toolbar.add')) }).click();
    const drawer = page.locator('.ant-drawer-section');
    await drawer.getByPlaceholder(tokens('form.namePlaceholder')).fill('first');
    await drawer.getByRole('button', { name: buttonName(tokens('drawer.submit')) }).click();
    await waitForToast(page, tokens('messages.created'));
    const keyDialog = page.getByTestId('token-key-dialog');
    const shownKey = await keyDialog.getByRole('textbox').inputValue();
    await keyDialog
      .locator('.ant-modal-footer')
      .getByRole('button', { name: buttonName(tokens('keyDialog.close')) })
      .click();

    // Back home: the call to make, with this server's real address and the key just made.
    await page.goto('/');
    await expect.poll(() => page.getByTestId('checklist-token').getAttribute('data-done'), { timeout: 30_000 }).toBe('true');
    const curl = (await page.getByTestId('first-call-curl').locator('pre').textContent()) ?? '';
    expect(curl).toContain(`curl ${server.url}/v1/chat/completions`);
    expect(curl).toContain(`Bearer ${shownKey}`);
    expect(curl).toContain('"model":"gpt-4o-mini"');
    const answer = await runCurl(curl);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]?.message.content).toBe('Hello from the fake upstream.');
    expect(upstream.requests.at(-1)?.key).toBe('sk-first-run-upstream');

    // The call is logged (in a batch, a moment after the answer): the checklist closes.
    await expect
      .poll(
        async () => {
          if ((await checklist.count()) > 0)
            await page
              .getByTestId('first-call-check')
              .click({ timeout: 2_000 })
              .catch(() => undefined);
          return checklist.count();
        },
        { timeout: 30_000 },
      )
      .toBe(0);
    await saveScreenshot(page, `first-run-done-${language}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
