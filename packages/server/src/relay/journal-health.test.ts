import { readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@switchboard/contracts';
import { createTestApp, createTestUser, rootUser, type TestApp } from '../testing/test-app.ts';
import { testDatabases } from '../testing/test-databases.ts';
import { FakeOpenAIUpstream } from './testing/fake-openai-upstream.ts';
import { flushLedger, seedChannel, seedToken } from './testing/relay-seed.ts';

const sqlite = testDatabases().filter((database) => database.dialect === 'sqlite');
const model = 'journal-health-model';

/**
 * GET /api/status/journal, what root's console polls for its banner: a quota journal on a full disk
 * (its next segment is /dev/full, so the write after a flush fails with ENOSPC as on a full disk)
 * reads as not writable, with the failed write counted and whether paid calls are refused meanwhile;
 * writable again once a write lands. Only root may ask.
 */
describe.each(sqlite)('the quota journal health on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database);
    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, [model]: 1 }));
    await seedChannel(testApp, { key: 'journal-health-upstream', baseUrl: fake.baseUrl, models: [model] });
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  const call = (apiKey: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      payload: { model, messages: [{ role: 'user', content: 'Hello' }] },
    });
  const health = async (headers: Record<string, string>) => testApp.app.inject({ method: 'GET', url: '/api/status/journal', headers });

  it('answers root whether charges reach the journal, through a full disk and back', async () => {
    const root = await rootUser(testApp);
    const user = await createTestUser(testApp, { quota: 10_000_000 });
    const token = await seedToken(testApp, user.id, { remainQuota: 1_000_000 });
    expect((await health(root.headers)).json()).toEqual({
      success: true,
      message: '',
      data: { writable: true, failed_writes: 0, refusing_paid_calls: false },
    });

    // The segment the journal moves to once its first charge is in the database is a full disk.
    const folder = testApp.config.quotaJournalDir;
    const [first] = readdirSync(folder).filter((file) => file.endsWith('.0.log'));
    expect(first).toBeDefined();
    symlinkSync('/dev/full', join(folder, first!.replace(/\.0\.log$/, '.1.log')));
    expect((await call(token.apiKey)).statusCode).toBe(200);
    await flushLedger(testApp);
    // The next charge is answered (the setting is off) but its journal write fails.
    expect((await call(token.apiKey)).statusCode).toBe(200);
    await expect.poll(async () => (await health(root.headers)).json().data).toEqual({ writable: false, failed_writes: 1, refusing_paid_calls: false });
    await testApp.context.options.set('RefuseWhenJournalFailing', 'true');
    try {
      expect((await health(root.headers)).json().data).toEqual({ writable: false, failed_writes: 1, refusing_paid_calls: true });
      expect((await call(token.apiKey)).statusCode).toBe(503);
    } finally {
      await testApp.context.options.set('RefuseWhenJournalFailing', 'false');
    }
    // The disk has room again: the next charge goes to a fresh segment and the banner goes.
    expect((await call(token.apiKey)).statusCode).toBe(200);
    await expect.poll(async () => (await health(root.headers)).json().data).toEqual({ writable: true, failed_writes: 1, refusing_paid_calls: false });
  });

  it('answers nobody but root', async () => {
    expect((await health({})).statusCode).toBe(401);
    const ordinary = await createTestUser(testApp);
    const admin = await createTestUser(testApp, { role: Role.admin });
    for (const who of [ordinary, admin]) {
      const answer = await health(who.headers);
      expect(answer.json()).toMatchObject({ success: false });
      expect(JSON.stringify(answer.json())).not.toContain('writable');
    }
  });
});
