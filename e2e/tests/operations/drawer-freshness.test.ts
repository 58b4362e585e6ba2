import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { navigateInApp } from '../../support/browser.ts';
import { localeText } from '../../support/locales.ts';
import { locales } from './locales.ts';
import { buttonName, createWorld, waitForToast, type OperationsWorld } from './operations-world.ts';

/**
 * An edit drawer opened a second time shows the record as it is now, and only that: it used to show
 * the previous opening's copy at once and fill again when the fresh answer came, which undid whatever
 * the administrator had typed in between (a fast edit of a channel's ceiling was silently lost).
 *
 * The add drawer opened right after a save is a fresh form: the saved one used to stay on screen after
 * the save while the router rendered the list again in a transition (the address already /channel), so
 * opening /channel/add in that moment found the old form still up, and the type picked and fields
 * filled in it vanished with it. Closed at once instead, the page waited for /channel's own lazy
 * component, so the close never rendered and the next opening was still the old form.
 */
let world: OperationsWorld;

beforeAll(async () => {
  world = await createWorld();
});

afterAll(async () => {
  await world?.close();
});

interface SavedChannel {
  name: string;
  type: number;
  other: string;
}

describe('the channel drawer opened again', () => {
  it("waits for the channel's fresh answer before showing the form, and keeps what is typed after it (en)", async () => {
    const text = locales.en.channels;
    const name = `drawer-fresh-${Date.now().toString(36)}`;
    const channel = { type: 1, name, key: 'sk-drawer-fresh', base_url: world.upstream.baseUrl, models: 'gpt-4o-mini', group: 'default' };
    expect((await world.root.post('/api/channel/', { mode: 'single', channel })).success).toBe(true);
    const found = await world.root.get<Array<{ id: number; name: string }>>(`/api/channel/search?keyword=${name}`);
    const id = found.data.find((row) => row.name === name)?.id;
    expect(id).toBeDefined();

    const view = await world.open('/channel', { language: 'en' });
    const { page } = view;
    const drawer = page.locator('.ant-drawer-section');
    const nameInput = drawer.getByPlaceholder(text.form.namePlaceholder);
    const openEditor = (rowText: string) =>
      page
        .locator('tr.ant-table-row', { hasText: rowText })
        .getByRole('button', { name: buttonName(text.actions.edit) })
        .click({ timeout: 30_000 });

    // First opening: the drawer shows the channel, then is closed untouched.
    await openEditor(name);
    await expect.poll(() => nameInput.inputValue(), { timeout: 30_000 }).toBe(name);
    await drawer.getByRole('button', { name: buttonName(text.drawer.cancel) }).click();
    await page.waitForURL('**/channel');

    // Another administrator renames it meanwhile.
    const renamed = `${name}-renamed`;
    expect((await world.root.put('/api/channel/', { id, name: renamed })).success).toBe(true);

    // Second opening, with the channel's own answer held back: no form (and so no stale copy to type into) yet.
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held: (value: Route) => void = () => undefined;
    const heldRoute = new Promise<Route>((resolve) => (held = resolve));
    await page.route(
      (url) => url.pathname === `/api/channel/${id}`,
      async (route) => {
        held(route);
        await released;
        await route.continue();
      },
    );
    await openEditor(name);
    await heldRoute;
    expect(await nameInput.count()).toBe(0);
    release();
    await expect.poll(() => nameInput.inputValue(), { timeout: 30_000 }).toBe(renamed);
    await page.unrouteAll({ behavior: 'wait' });

    // What is typed now is what is saved.
    await drawer.getByLabel(text.form.tpm_limit, { exact: true }).fill('1234');
    await drawer.getByRole('button', { name: buttonName(text.drawer.submit) }).click();
    await waitForToast(page, text.messages.updated);
    await page.waitForURL('**/channel');
    const saved = await world.root.get<{ name: string; setting: string }>(`/api/channel/${id}`);
    expect(saved.data.name).toBe(renamed);
    expect(JSON.parse(saved.data.setting)).toEqual({ tpm_limit: 1234 });
    expect(view.consoleErrors).toEqual([]);
    await view.context.close();
  }, 150_000);

  it('opens a blank add form in-app right after a save, and saves the type picked in it (en)', async () => {
    const text = locales.en.channels;
    const view = await world.open('/channel/add', { language: 'en' });
    const { page } = view;
    const drawer = page.locator('.ant-drawer-section');
    const nameInput = drawer.getByPlaceholder(text.form.namePlaceholder);
    const savedChannel = async (name: string) =>
      (await world.root.get<SavedChannel[]>(`/api/channel/search?keyword=${name}`)).data.find((row) => row.name === name);
    const fill = async (name: string, key: string) => {
      await nameInput.fill(name);
      await drawer.getByPlaceholder(text.form.keyPlaceholder).fill(key);
      const custom = drawer.getByPlaceholder(text.form.customModel);
      await custom.fill('gpt-4o-mini');
      await custom.press('Enter');
    };
    const save = async () => {
      await drawer.getByRole('button', { name: buttonName(text.drawer.submit) }).click();
      await waitForToast(page, text.messages.created);
      await page.waitForURL('**/channel');
    };

    // A first channel of the default type (OpenAI), saved through the form.
    const first = `after-save-a-${Date.now().toString(36)}`;
    await drawer.getByLabel(text.form.proxy).waitFor();
    await fill(first, 'sk-after-save-a');
    // The list's render after the save takes a loaded machine's time: Chromium's CPU slowed fourfold
    // makes the moment after the save as long here as under CI's load, whatever this machine's load.
    const cdp = await view.context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await save();
    expect(await savedChannel(first)).toMatchObject({ type: 1 });

    // At once, the add form again, through the console's router: blank, not the one just saved.
    await navigateInApp(page, '/channel/add');
    await drawer.getByLabel(text.form.proxy).waitFor();
    expect(await nameInput.inputValue()).toBe('');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });

    // Cloudflare: its account ID input replaces the proxy address, and the channel is saved as one.
    await drawer.getByLabel(text.form.type, { exact: true }).click();
    await page.keyboard.type('Cloudflare (39)');
    await page.locator('.ant-select-item-option', { hasText: 'Cloudflare (39)' }).click();
    await drawer.getByLabel(text.form.accountId).fill('d6b5da8hk1awo8nap34ube6gh');
    await drawer.getByLabel(text.form.proxy).waitFor({ state: 'detached' });
    const second = `after-save-b-${Date.now().toString(36)}`;
    await fill(second, 'cf-after-save-b');
    await save();
    expect(await savedChannel(second)).toMatchObject({ type: 39, other: 'd6b5da8hk1awo8nap34ube6gh' });
    expect(view.consoleErrors).toEqual([]);
    await view.context.close();
  }, 150_000);
});

describe('the user drawer opened again', () => {
  const t = localeText('users', 'en');
  const common = localeText('common', 'en');

  /**
   * A user whose drawer has been opened and closed once (so the console holds that opening's copy),
   * then renamed by another administrator; the page is left on /user.
   */
  async function userSeenThenRenamed(prefix: string) {
    const username = `${prefix}${Date.now() % 100000}`;
    expect((await world.root.post('/api/user/', { username, display_name: 'Before', password: 'password123' })).success).toBe(true);
    const found = await world.root.get<Array<{ id: number; username: string }>>(`/api/user/search?keyword=${username}`);
    const id = found.data.find((row) => row.username === username)?.id;
    if (id === undefined) throw new Error(`user ${username} not found`);

    const view = await world.open('/user', { language: 'en' });
    const { page } = view;
    const form = page.getByTestId('user-edit-form');
    const displayName = form.getByLabel(t('form.displayName'), { exact: true });
    const openEditor = () =>
      page
        .getByTestId('users-table')
        .locator('tr', { has: page.getByText(username, { exact: true }) })
        .getByRole('button', { name: buttonName(common('actions.edit')) })
        .click({ timeout: 30_000 });
    const budgetQuota = page.locator('#user-budget-quota');
    await openEditor();
    await expect.poll(() => displayName.inputValue(), { timeout: 30_000 }).toBe('Before');
    await budgetQuota.waitFor();
    await form.getByRole('button', { name: buttonName(common('actions.cancel')) }).click();
    await page.locator('.ant-drawer').waitFor({ state: 'detached' });

    expect((await world.root.put('/api/user/', { id, display_name: 'After' })).success).toBe(true);
    return { id, username, view, page, form, displayName, budgetQuota, openEditor };
  }

  /** Holds the console's GETs of `path` until `until` settles; `held` resolves once one is held. */
  async function holdAnswers(page: Page, path: string, until: Promise<unknown>): Promise<{ held: Promise<void> }> {
    let held: () => void = () => undefined;
    const heldRoute = new Promise<void>((resolve) => (held = resolve));
    await page.route(
      (url) => url.pathname === path,
      async (route) => {
        held();
        await until;
        await route.continue();
      },
    );
    return { held: heldRoute };
  }

  it("shows no form until the user's fresh answer is in, then shows that answer (en)", async () => {
    const { id, view, page, form, displayName, openEditor } = await userSeenThenRenamed('ufresh');
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { held } = await holdAnswers(page, `/api/user/${id}`, released);
    await openEditor();
    await held;
    // The previous opening's copy ('Before') must not be shown to be typed into.
    expect(await form.count()).toBe(0);
    release();
    await expect.poll(() => displayName.inputValue(), { timeout: 30_000 }).toBe('After');
    await page.unrouteAll({ behavior: 'wait' });
    expect(view.consoleErrors).toEqual([]);
    await view.context.close();
  }, 150_000);

  it('saves what was typed even when the fresh answer comes after the typing (en)', async () => {
    const { id, username, view, page, form, displayName, openEditor } = await userSeenThenRenamed('utyped');
    // The fresh answer is let through once the remark has been typed, or after 5 s when no form was
    // shown to type into (as it should be: the form waits for that answer). The console used to show
    // the previous opening's copy at once and fill the form again when the fresh answer came.
    let typed: () => void = () => undefined;
    const typing = new Promise<void>((resolve) => (typed = resolve));
    await holdAnswers(page, `/api/user/${id}`, Promise.race([typing, new Promise((resolve) => setTimeout(resolve, 5_000))]));
    await openEditor();
    const remark = form.getByLabel(t('form.remark'), { exact: true });
    await remark.fill('typed before the answer', { timeout: 30_000 });
    typed();
    // The fresh answer is shown (the old console filled the form with it again here, remark included).
    await expect.poll(() => displayName.inputValue(), { timeout: 30_000 }).toBe('After');
    await page.unrouteAll({ behavior: 'wait' });
    await page.getByTestId('edit-user-submit').click();
    await waitForToast(page, t('edit.saved'));

    const saved = await world.root.get<{ username: string; display_name: string; remark: string }>(`/api/user/${id}`);
    expect(saved.data).toMatchObject({ username, display_name: 'After', remark: 'typed before the answer' });
    expect(view.consoleErrors).toEqual([]);
    await view.context.close();
  }, 150_000);

  it("shows the user's budget only from this opening's answer, and saves the budget typed (en)", async () => {
    const { id, view, page, displayName, budgetQuota, openEditor } = await userSeenThenRenamed('ubudget');
    expect((await world.root.put(`/api/budget/users/${id}`, { budget_quota: 700000, budget_period: 'day' })).success).toBe(true);
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    // (Not waited for: the old console, holding a copy less than 10 s old, did not ask again.)
    await holdAnswers(page, `/api/budget/users/${id}`, released);
    await openEditor();
    await expect.poll(() => displayName.inputValue(), { timeout: 30_000 }).toBe('After');
    // The previous opening's budget (none) must not be shown, to be typed into and then started afresh.
    expect(await budgetQuota.count()).toBe(0);
    release();
    await expect.poll(() => budgetQuota.inputValue(), { timeout: 30_000 }).toBe('700000');
    await page.unrouteAll({ behavior: 'wait' });

    await budgetQuota.fill('900000');
    await page.getByTestId('user-budget-save').click();
    await waitForToast(page, t('budget.saved'));
    const saved = await world.root.get<{ budget_quota: number; budget_period: string }>(`/api/budget/users/${id}`);
    expect(saved.data).toMatchObject({ budget_quota: 900000, budget_period: 'day' });
    expect(view.consoleErrors).toEqual([]);
    await view.context.close();
  }, 150_000);
});

describe('the token drawer opened again', () => {
  it("shows the token's budget only from this opening's answer, and saves the budget typed (en)", async () => {
    const text = locales.en.tokens;
    const name = `budget-fresh-${Date.now().toString(36)}`;
    expect((await world.root.post('/api/token/', { name, remain_quota: 0, expired_time: -1, unlimited_quota: true })).success).toBe(true);
    const [token] = (await world.root.get<Array<{ id: number }>>(`/api/token/search?keyword=${name}`)).data;
    if (!token) throw new Error(`token ${name} not found`);

    const view = await world.open('/token', { language: 'en' });
    const { page } = view;
    const drawer = page.locator('.ant-drawer-section');
    const nameInput = drawer.getByLabel(text.form.name, { exact: true });
    const budgetQuota = page.locator('#token-budget-quota');
    const openEditor = () =>
      page
        .locator('tr.ant-table-row', { hasText: name })
        .getByRole('button', { name: buttonName(text.actions.edit) })
        .click({ timeout: 30_000 });

    // First opening: the budget (none) is shown, then the drawer is closed untouched.
    await openEditor();
    await budgetQuota.waitFor({ timeout: 30_000 });
    await drawer.getByRole('button', { name: buttonName(text.drawer.cancel) }).click();
    await page.locator('.ant-drawer').waitFor({ state: 'detached' });

    // Another session gives the token a weekly budget meanwhile.
    expect((await world.root.put(`/api/budget/tokens/${token.id}`, { budget_quota: 700000, budget_period: 'week' })).success).toBe(true);

    // Second opening, with the budgets' answer held back: the token's form, but no budget to type into yet.
    // (Not waited for: the old console answered from the list's copy and did not ask again.)
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/api/budget/tokens',
      async (route) => {
        await released;
        await route.continue();
      },
    );
    await openEditor();
    await expect.poll(() => nameInput.inputValue(), { timeout: 30_000 }).toBe(name);
    expect(await budgetQuota.count()).toBe(0);
    release();
    await expect.poll(() => budgetQuota.inputValue(), { timeout: 30_000 }).toBe('700000');
    await page.unrouteAll({ behavior: 'wait' });

    await budgetQuota.fill('900000');
    await page.getByTestId('token-budget-save').click();
    await waitForToast(page, text.budget.saved);
    const saved = (await world.root.get<Array<{ id: number; budget_quota: number; budget_period: string }>>('/api/budget/tokens')).data.find(
      (row) => row.id === token.id,
    );
    expect(saved).toMatchObject({ budget_quota: 900000, budget_period: 'week' });
    expect(view.consoleErrors).toEqual([]);
    await view.context.close();
  }, 150_000);
});
