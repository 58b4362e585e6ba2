import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { startSmtpCatcher } from '../../api/verification/testing/smtp-catcher.ts';
import { createTestApp, createTestUser, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { FakeOpenAIUpstream } from '../testing/fake-openai-upstream.ts';
import { seedChannel, seedToken } from '../testing/relay-seed.ts';

const rootAddress = 'root@gateway.test';

describe.each(testDatabases())('mail to root when the relay disables a channel on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database);
    const settings = {
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPAccount: 'mailer@gateway.test',
      SMTPToken: 'smtp-password',
      AutomaticDisableChannelEnabled: 'true',
    };
    for (const [key, value] of Object.entries(settings)) await testApp.context.options.set(key, value);
    await testApp.context.database.db.updateTable('users').set({ email: rootAddress }).where('username', '=', 'root').execute();
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
    await smtp.close();
  });

  it('mails root naming the channel after an invalid key (401), without the key', async () => {
    const key = 'sk-dead-key-that-must-not-be-mailed-7f3a';
    fake.behave(key, 'status-401');
    const channelId = await seedChannel(testApp, { name: 'eu-backup-openai', key, baseUrl: fake.baseUrl, models: ['gpt-4o-mini'] });
    const user = await createTestUser(testApp, { quota: 1_000_000 });
    const token = await seedToken(testApp, user.id);

    const answer = await testApp.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${token.apiKey}` },
      payload: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(answer.statusCode).toBe(401);

    // The disable and its mail happen in the background after the answer.
    const mail = await vi.waitFor(
      () => {
        const caught = smtp.lastTo(rootAddress);
        if (!caught) throw new Error('no mail to root yet');
        return caught;
      },
      { timeout: 10_000, interval: 25 },
    );
    expect(mail.from).toBe('mailer@gateway.test');
    expect(mail.text).toContain(`Channel "eu-backup-openai" (#${channelId}) was disabled automatically.`);
    // The upstream's reason is quoted with the key masked.
    expect(mail.text).toContain('Reason: Incorrect API key provided: ***.');
    expect(mail.text).not.toContain(key);
    expect(testApp.app.relay.channels.get(channelId)?.status).toBe(ChannelStatus.autoDisabled);
  });
});
