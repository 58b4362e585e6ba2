import type { BrowserContext } from 'playwright-core';

/**
 * Keeps a context's traffic on 127.0.0.1: anything addressed elsewhere (a chat front end, an embedded
 * page an administrator configured) is aborted before it leaves the browser.
 */
export async function keepTrafficLocal(context: BrowserContext): Promise<void> {
  await context.route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => route.abort('blockedbyclient'),
  );
}

/**
 * Stands in for an outside web page (a chat front end, a framed home page) at `pathPrefix` on the
 * local server: each request there is answered with a small page naming `title` and recorded, so a
 * test can read the URL the console filled in. Works for popups, frames and navigations alike.
 */
export async function fakeWebPage(context: BrowserContext, pathPrefix: string, title: string): Promise<{ requests: URL[] }> {
  const requests: URL[] = [];
  await context.route(
    (url) => url.hostname === '127.0.0.1' && url.pathname.startsWith(pathPrefix),
    (route) => {
      requests.push(new URL(route.request().url()));
      return route.fulfill({
        contentType: 'text/html; charset=utf-8',
        body: `<!doctype html><title>${title}</title><link rel="icon" href="data:,"><h1>${title}</h1>`,
      });
    },
  );
  return { requests };
}

/**
 * Records requests under `pathPrefix` and answers 204 No Content, so a frame pointed there stays on
 * its empty start page: the test sees the URL the console chose without loading another origin's
 * document (into which the harness's init script would be injected, and fail on its storage).
 */
export async function stubEmptyPage(context: BrowserContext, pathPrefix: string): Promise<{ requests: URL[] }> {
  const requests: URL[] = [];
  await context.route(
    (url) => url.hostname === '127.0.0.1' && url.pathname.startsWith(pathPrefix),
    (route) => {
      requests.push(new URL(route.request().url()));
      return route.fulfill({ status: 204 });
    },
  );
  return { requests };
}
