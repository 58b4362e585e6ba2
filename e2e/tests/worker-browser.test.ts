import { afterAll, describe, expect, it } from 'vitest';
import { closeFileContexts, workerBrowser } from '../support/browser.ts';

// The harness itself: the files a worker runs share one Chromium, so each must leave it running and
// without contexts of its own, and a browser that went away must not take the next files with it.
describe("the worker's browser", () => {
  afterAll(closeFileContexts);

  it('is one Chromium for every file of the worker', async () => {
    expect(await workerBrowser()).toBe(await workerBrowser());
  });

  it("keeps running without the file's contexts once the file closes them", async () => {
    const browser = await workerBrowser();
    await browser.newContext();
    await browser.newContext();
    await closeFileContexts();
    expect(browser.contexts()).toEqual([]);
    expect(browser.isConnected()).toBe(true);
  });

  it('is launched again once it has closed (a crash, or a file that closed it)', async () => {
    const closed = await workerBrowser();
    await closed.close();
    const next = await workerBrowser();
    expect(next).not.toBe(closed);
    expect(next.isConnected()).toBe(true);
  });
});
