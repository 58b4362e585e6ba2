import { createTestApp, createTestUser, type TestApp } from '../../../testing/test-app.ts';
import type { TestDatabase } from '../../../testing/test-databases.ts';
import { FakeOpenAIUpstream, type FakeMode } from './fake-openai-upstream.ts';
import { ledgerState, listenLocally, openaiClient, seedChannel, seedToken } from './relay-seed.ts';

/** One case: its own model, a failing primary channel and (unless told otherwise) a healthy backup. */
export interface TieredFaultCase {
  readonly model: string;
  readonly primary: number;
  readonly backup: number | undefined;
  readonly primaryKey: string;
  readonly backupKey: string;
  readonly token: { id: number; key: string; apiKey: string };
  readonly client: ReturnType<typeof openaiClient>;
  readonly state: () => ReturnType<typeof ledgerState>;
}

/** A gateway on its own database behind a fake OpenAI upstream, a user with plenty of quota, RetryTimes = 1. */
export interface TieredFaultWorld {
  readonly testApp: TestApp;
  readonly fake: FakeOpenAIUpstream;
  readonly baseUrl: string;
  readonly userId: number;
  /** A model no case used yet (priced at ratio 1). */
  nextModel(): string;
  /**
   * A primary channel (priority 10) whose upstream behaves as `mode` and a healthy backup (priority 0)
   * on a model of the case's own, so RetryTimes = 1 drops to the backup tier when the failure is retryable.
   */
  setUp(mode: FakeMode, options?: { backup?: boolean }): Promise<TieredFaultCase>;
  close(): Promise<void>;
}

export async function openTieredFaultWorld(
  database: TestDatabase,
  settings: { env: Record<string, string>; modelPrefix: string; primaryPrefix: string; options?: Record<string, string> },
): Promise<TieredFaultWorld> {
  const fake = new FakeOpenAIUpstream();
  await fake.start();
  const testApp = await createTestApp(database, settings.env);
  const baseUrl = await listenLocally(testApp);
  const userId = (await createTestUser(testApp, { quota: 100_000_000 })).id;
  const options = testApp.context.options;
  await options.set('RetryTimes', '1');
  for (const [key, value] of Object.entries(settings.options ?? {})) await options.set(key, value);
  const ratios = options.getJson<Record<string, number>>('ModelRatio');
  const extra = Object.fromEntries(Array.from({ length: 20 }, (_unused, index) => [`${settings.modelPrefix}-${index}`, 1]));
  await options.set('ModelRatio', JSON.stringify({ ...ratios, ...extra }));
  let caseNumber = 0;
  const nextModel = () => {
    caseNumber += 1;
    return `${settings.modelPrefix}-${caseNumber}`;
  };
  return {
    testApp,
    fake,
    baseUrl,
    userId,
    nextModel,
    async setUp(mode, caseOptions = {}) {
      const model = nextModel();
      const primaryKey = `${settings.primaryPrefix}-${caseNumber}-${database.dialect}`;
      const backupKey = `backup-${caseNumber}-${database.dialect}`;
      fake.behave(primaryKey, mode);
      const primary = await seedChannel(testApp, { key: primaryKey, baseUrl: fake.baseUrl, models: [model], priority: 10 });
      const backup =
        caseOptions.backup === false ? undefined : await seedChannel(testApp, { key: backupKey, baseUrl: fake.baseUrl, models: [model], priority: 0 });
      const token = await seedToken(testApp, userId, { remainQuota: 1_000_000 });
      const client = openaiClient(baseUrl, token.apiKey);
      const state = () => ledgerState(testApp, { tokenId: token.id, userId, channelIds: backup ? [primary, backup] : [primary] });
      return { model, primary, backup, primaryKey, backupKey, token, client, state };
    },
    async close() {
      await testApp.close();
      await fake.stop();
    },
  };
}
