import { vi } from 'vitest';
import { createTestApp, createTestUser, type TestApp } from '../../../../../testing/test-app.ts';
import type { TestDatabase } from '../../../../../testing/test-databases.ts';
import { ledgerState, listenLocally, seedChannel, seedToken, type SeedChannel } from '../../../testing/relay-seed.ts';

/** The app listening on 127.0.0.1 with a funded user, retries on, auto-disable on. */
export interface NativeRelay {
  testApp: TestApp;
  baseUrl: string;
  userId: number;
  /** A channel of a native type; `other` is the type-specific field (api version, region map). */
  channel(seed: SeedChannel & { other?: string }): Promise<number>;
  /** Waits until the channel's stored status is `status` (auto-disable is written in the background). */
  waitForStatus(channelId: number, status: number): Promise<void>;
  /** A fresh relay key and the state of its charges. */
  token(): Promise<{ id: number; apiKey: string; state: (channelIds: number[]) => ReturnType<typeof ledgerState> }>;
  close(): Promise<void>;
}

/** `env` adds environment variables (a short STREAMING_TIMEOUT, for instance). */
export async function startNativeRelay(database: TestDatabase, env: Record<string, string> = {}): Promise<NativeRelay> {
  const testApp = await createTestApp(database, env);
  const baseUrl = await listenLocally(testApp);
  const userId = (await createTestUser(testApp, { quota: 100_000_000 })).id;
  await testApp.context.options.set('RetryTimes', '1');
  await testApp.context.options.set('AutomaticDisableChannelEnabled', 'true');
  let channels = 0;
  return {
    testApp,
    baseUrl,
    userId,
    async channel(seed) {
      channels += 1;
      // Keys such as a service-account JSON are too long to name a channel after.
      const id = await seedChannel(testApp, { name: `native-${seed.type ?? 1}-${channels}`, ...seed });
      if (seed.other) {
        await testApp.context.database.db.updateTable('channels').set({ other: seed.other }).where('id', '=', id).execute();
        await testApp.app.relay.channels.reload();
      }
      return id;
    },
    async token() {
      const token = await seedToken(testApp, userId, { remainQuota: 10_000_000 });
      return { id: token.id, apiKey: token.apiKey, state: (channelIds: number[]) => ledgerState(testApp, { tokenId: token.id, userId, channelIds }) };
    },
    async waitForStatus(channelId, status) {
      const { db } = testApp.context.database;
      await vi.waitFor(
        async () => {
          const row = await db.selectFrom('channels').select('status').where('id', '=', channelId).executeTakeFirstOrThrow();
          if (row.status !== status) throw new Error(`channel ${channelId} has status ${row.status}, waiting for ${status}`);
        },
        { timeout: 5000, interval: 20 },
      );
    },
    close: () => testApp.close(),
  };
}
