import { readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Role } from '@switchboard/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, createTestUser, rootUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { FakeOpenAIUpstream } from './testing/fake-openai-upstream.ts';
import { flushLedger, ledgerState, seedChannel, seedToken } from './testing/relay-seed.ts';

const sqlite = testDatabases().filter((database) => database.dialect === 'sqlite');
const model = 'journal-model';

/**
 * RefuseWhenJournalFailing: while the quota journal cannot be written (a full disk), an operator who
 * chose it gets paid calls refused with a 503 that moves nothing, instead of answers whose charges a
 * crash would lose; with the setting off (the default) calls go on. GET /api/status/journal, what
 * root's console polls for its banner, says so: a journal on a full disk (its next segment is
 * /dev/full, so the write after a flush fails with ENOSPC as on a full disk) reads as not writable,
 * with the failed write counted, until a write lands again. Only root may ask.
 */
describe.each(sqlite)('paid calls while the quota journal cannot be written on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database);
    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, [model]: 1 }));
    await seedChannel(testApp, { key: 'journal-upstream', baseUrl: fake.baseUrl, models: [model] });
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

  it('goes on by default, and refuses with 503 and no charge when the operator asked for it', async () => {
    const user = await createTestUser(testApp, { quota: 10_000_000 });
    const token = await seedToken(testApp, user.id, { remainQuota: 1_000_000 });
    const durable = vi.spyOn(testApp.app.relay, 'chargesDurable').mockReturnValue(false);
    try {
      expect((await call(token.apiKey)).statusCode).toBe(200);
      await testApp.context.options.set('RefuseWhenJournalFailing', 'true');
      const upstreamBefore = fake.requestsFor('journal-upstream').length;
      const refused = await call(token.apiKey);
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ error: { code: 'charges_not_durable' } });
      expect(fake.requestsFor('journal-upstream').length).toBe(upstreamBefore);
      // Writable again: served at once.
      durable.mockReturnValue(true);
      expect((await call(token.apiKey)).statusCode).toBe(200);
      const state = await ledgerState(testApp, { tokenId: token.id, userId: user.id, channelIds: [] });
      expect(state.logs).toHaveLength(2);
    } finally {
      durable.mockRestore();
      await testApp.context.options.set('RefuseWhenJournalFailing', 'false');
    }
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
    const segments = readdirSync(folder)
      .map((file) => /^(.*)\.(\d+)\.log$/.exec(file))
      .filter((match) => match !== null)
      .sort((a, b) => Number(b[2]) - Number(a[2]));
    const [prefix, current] = [segments[0]![1], Number(segments[0]![2])];
    symlinkSync('/dev/full', join(folder, `${prefix}.${current + 1}.log`));
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
