import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUptimeKuma, type FakeUptimeKuma } from '../../packages/server/src/entry/api/uptime/testing/fake-uptime-kuma.ts';
import { loginApi, type ApiSession } from '../support/api-session.ts';
import { closeFileContexts, workerBrowser, loginAs, openConsole, saveScreenshot, type Language } from '../support/browser.ts';
import { localeText } from '../support/locales.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let browser: Browser;
let kuma: FakeUptimeKuma;
let root: ApiSession;

const announcement = { content: 'Maintenance on Sunday 02:00', publishDate: '2025-12-01T08:00:00Z', type: 'warning', extra: 'about ten minutes' };
const apiInfo = { url: 'https://api.gateway.test', route: 'Main line', description: 'For everyone', color: 'teal' };
const faq = { question: 'How do I make a key?', answer: 'Open Tokens and add one.' };

beforeAll(async () => {
  [server, browser, kuma] = await Promise.all([startServer(), workerBrowser(), startFakeUptimeKuma()]);
  root = await loginApi(server.url, 'root', '123456');
  // The bodies new-api's console sends (lists as JSON text, switches as booleans), and the outgoing
  // policy opened for the local fake Uptime Kuma, as an operator would for a status page on loopback.
  for (const [key, value] of [
    ['fetch_setting.ip_filter_mode', true],
    ['fetch_setting.ip_list', '["127.0.0.1"]'],
    ['fetch_setting.allowed_ports', '[]'],
    ['console_setting.announcements', JSON.stringify([announcement])],
    ['console_setting.api_info', JSON.stringify([apiInfo])],
    ['console_setting.faq', JSON.stringify([faq])],
    ['console_setting.uptime_kuma_groups', JSON.stringify([{ categoryName: 'Core services', url: kuma.url, slug: 'core', description: '' }])],
    ['console_setting.uptime_kuma_enabled', true],
  ] as const) {
    const answer = await root.put('/api/option/', { key, value });
    expect(answer.success, `${key}: ${answer.message}`).toBe(true);
  }
});

afterAll(async () => {
  await closeFileContexts();
  await server?.stop();
  await kuma?.close();
});

// One language, as every flow: the other is covered by the language smoke pass (language-smoke.test.ts) and the locale check.
describe.each(['zh'] as const)("new-api's dashboard panels on the home page (%s)", (language: Language) => {
  const home = localeText('home', language);
  const settings = localeText('settings', language);

  it('shows announcements, API addresses, FAQ and service status to a visitor', async () => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await page.goto(`${server.url}/`);
    const announcements = page.getByTestId('panel-announcements');
    // The panels come after the status call (and the uptime panel after its own): slow on a loaded machine.
    await announcements
      .getByText(home('panels.announcements'), { exact: true })
      .waitFor({ timeout: 60_000 })
      .catch(async (error: unknown) => {
        await saveScreenshot(page, `dashboard-panels-failed-${language}`);
        throw error;
      });
    await announcements.getByText(announcement.content).waitFor();
    await announcements.getByText(announcement.extra, { exact: false }).waitFor();
    const addresses = page.getByTestId('panel-api-info');
    await addresses.getByText(home('panels.apiInfo'), { exact: true }).waitFor();
    await addresses.getByText(apiInfo.url).waitFor();
    await addresses.getByText(`${apiInfo.route} · ${apiInfo.description}`).waitFor();
    const questions = page.getByTestId('panel-faq');
    await questions.getByText(faq.question).click();
    await questions.getByText(faq.answer).waitFor();
    const uptime = page.getByTestId('panel-uptime');
    await uptime.getByText(home('panels.uptime'), { exact: true }).waitFor({ timeout: 60_000 });
    await uptime.getByText('Core services').waitFor();
    const openAi = uptime.locator('div', { has: page.getByText('OpenAI relay', { exact: true }) }).last();
    await openAi.getByText(home('panels.status.up')).waitFor();
    await openAi.getByText('99.86%').waitFor();
    const claude = uptime.locator('div', { has: page.getByText('Claude relay', { exact: true }) }).last();
    await claude.getByText(home('panels.status.down')).waitFor();
    await uptime.getByText(home('panels.status.maintenance')).waitFor();
    expect(kuma.requests).toContain('/api/status-page/heartbeat/core');
    await saveScreenshot(page, `dashboard-panels-${language}`);
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 180_000);

  it('edits a panel in the system settings, and the home page follows', async () => {
    const { page, context, consoleErrors } = await openConsole(browser, server.url, { language });
    await loginAs(page, 'root', '123456', '/setting?tab=system');
    const section = page.getByTestId('section-dashboardPanels');
    // The system tab is the console's largest form: on a loaded machine it takes a while to mount.
    await section.getByText(settings('sections.dashboardPanels'), { exact: true }).waitFor({ timeout: 60_000 });
    const question = `Where is the ${language} answer?`;
    await section.getByLabel(settings('fields.console_setting.faq'), { exact: true }).fill(JSON.stringify([{ question, answer: 'Right here.' }]));
    await section.getByLabel(settings('fields.console_setting.api_info_enabled'), { exact: true }).click();
    await page.getByTestId('save-dashboardPanels').click();
    await page
      .locator('.ant-message-notice', { hasText: settings('messages.saved') })
      .last()
      .waitFor();
    const status = (await root.get<Record<string, unknown>>('/api/status')).data;
    expect(status).toMatchObject({ api_info_enabled: false, faq: [{ question, answer: 'Right here.' }] });
    expect(status).not.toHaveProperty('api_info');

    await page.goto(`${server.url}/`);
    await page.getByTestId('panel-faq').getByText(question).waitFor();
    expect(await page.getByTestId('panel-api-info').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
    await context.close();
  }, 180_000);
});
