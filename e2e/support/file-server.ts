import type { Browser } from 'playwright-core';
import { loginApi, type ApiSession } from './api-session.ts';
import { closeFileContexts, workerBrowser } from './browser.ts';
import { startServer, type TestServer } from './server.ts';

/** What most browser test files start with: their own server, the worker's browser and root's API session. */
export interface FileServer {
  readonly server: TestServer;
  readonly browser: Browser;
  readonly root: ApiSession;
}

export interface FileServerOptions {
  /** Variables for the server (see `startServer`). */
  readonly env?: Record<string, string>;
  /** Root's password when `env` sets another INITIAL_ROOT_PASSWORD. */
  readonly rootPassword?: string;
}

/**
 * A file's fresh server (the bundle as `npm start` runs it, on its own SQLite database) and the
 * worker's browser, started together, then root logged in through the API. For a file's `beforeAll`;
 * `closeFileServer` undoes it in its `afterAll`.
 */
export async function openFileServer(options: FileServerOptions = {}): Promise<FileServer> {
  const [server, browser] = await Promise.all([startServer(options.env), workerBrowser()]);
  const root = await loginApi(server.url, 'root', options.rootPassword ?? '123456');
  return { server, browser, root };
}

/**
 * After a file's tests: its browser contexts closed (the next file in the worker starts with none of
 * its pages or cookies), then its server stopped. `server` is undefined when `beforeAll` failed.
 */
export async function closeFileServer(server: TestServer | undefined): Promise<void> {
  await closeFileContexts();
  await server?.stop();
}
