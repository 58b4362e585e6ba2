import type { Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locales } from './locales.ts';
import { buttonName, createWorld, waitForToast, type OperationsWorld } from './operations-world.ts';

/**
 * An edit drawer opened a second time shows the record as it is now, and only that: it used to show
 * the previous opening's copy at once and fill again when the fresh answer came, which undid whatever
 * the administrator had typed in between (a fast edit of a channel's ceiling was silently lost).
 */
let world: OperationsWorld;

beforeAll(async () => {
  world = await createWorld();
});

afterAll(async () => {
  await world?.close();
});

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
});
