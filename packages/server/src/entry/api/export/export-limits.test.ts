import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LogType } from '@switchboard/contracts';
import { listenLocally } from '../../relay/testing/relay-seed.ts';
import { createTestApp, createTestUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

/** Far more CSV than the loopback's socket buffers hold (a few megabytes), so a reader that stops reading stalls the export. */
const rows = 1_000;
const contentBytes = 24_000;

describe.each(testDatabases())('bounds on CSV exports on $dialect', (database) => {
  let testApp: TestApp;
  let baseUrl: string;
  let user: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp(database, { EXPORT_READ_TIMEOUT_SECONDS: '1' });
    baseUrl = await listenLocally(testApp);
    user = await createTestUser(testApp);
    const entries = Array.from({ length: rows }, (_, index) => ({
      user_id: user.id,
      username: user.username,
      type: LogType.consume,
      model_name: 'gpt-4o',
      quota: index,
      content: `row ${index} ${'x'.repeat(contentBytes)}`,
    }));
    for (let start = 0; start < entries.length; start += 100) await testApp.context.logWriter.recordMany(entries.slice(start, start + 100));
  }, 120_000);
  afterAll(async () => {
    await testApp.close();
  });

  const exportVia = (as: TestUser, url = '/api/export/logs/self') =>
    testApp.app.inject({ method: 'GET', url, headers: { ...as.headers, 'accept-language': 'en' } });

  /** Starts an export over a real socket and never reads it, as a stalled (or malicious) reader would. */
  function stalledReader(as: TestUser): Promise<Socket> {
    const { port } = new URL(baseUrl);
    return new Promise((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.pause();
        const headers = Object.entries(as.headers).map(([name, value]) => `${name}: ${value}\r\n`);
        socket.write(`GET /api/export/logs/self HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.join('')}\r\n`);
        resolve(socket);
      });
    });
  }

  it('runs one export per user at a time, and cuts off a reader that takes nothing, freeing the slot', async () => {
    // The slot is freed a second (EXPORT_READ_TIMEOUT_SECONDS) after the export's last write, which
    // comes after the reader connects: timed from here, not from a point a loaded machine may reach late.
    const stalledSince = Date.now();
    const reader = await stalledReader(user);
    // While it stalls, the user's next export (even a small one) is refused with the reason; another user's goes ahead.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await exportVia(user, '/api/export/tokens')).json()).toEqual({
      success: false,
      message: 'An export is already running (at most 1 at once); try again when it has finished',
    });
    const other = await createTestUser(testApp);
    expect((await exportVia(other, '/api/export/tokens')).statusCode).toBe(200);

    // A second without reading: the reader is cut off, and the user may export again.
    await vi.waitFor(async () => expect((await exportVia(user, '/api/export/tokens')).statusCode).toBe(200), { timeout: 10_000, interval: 100 });
    expect(Date.now() - stalledSince).toBeGreaterThanOrEqual(1000);
    reader.destroy();
    const whole = await exportVia(user);
    expect(whole.statusCode).toBe(200);
    expect(whole.body.length).toBeGreaterThan(rows * contentBytes);
  }, 60_000);
});
