import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { createTestApp, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { seedChannel } from '../testing/relay-seed.ts';
import { ChannelCache } from './channel-cache.ts';
import { type ChannelRow, RelayCacheRepository } from './relay-cache.repository.ts';

/** A repository whose channel reads can be held after they have read the rows (a slow reload). */
class HeldRepository extends RelayCacheRepository {
  private hold: Promise<void> | undefined;
  private release: (() => void) | undefined;

  holdNextRead(): void {
    this.hold = new Promise((resolve) => (this.release = resolve));
  }

  releaseRead(): void {
    this.release?.();
    this.hold = undefined;
  }

  override async allChannels(): Promise<ChannelRow[]> {
    const rows = await super.allChannels();
    const hold = this.hold;
    this.hold = undefined;
    if (hold) await hold;
    return rows;
  }
}

const sqlite = testDatabases().filter((database) => database.dialect === 'sqlite');

describe.each(sqlite)('channel cache reloads racing an auto-disable on $dialect', (database) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp(database);
  });
  afterAll(async () => testApp.close());

  async function disabledInDatabase(id: number): Promise<void> {
    await testApp.context.database.db.updateTable('channels').set({ status: ChannelStatus.autoDisabled }).where('id', '=', id).execute();
  }

  it('keeps a channel out of routing when a reload read its row before the disable was written', async () => {
    const id = await seedChannel(testApp, { key: 'race-1', baseUrl: 'http://127.0.0.1:9', models: ['race-model-1'] });
    const repository = new HeldRepository(testApp.context.database.db);
    const cache = new ChannelCache(repository);
    await cache.reload();
    expect(cache.tiers('default', 'race-model-1')).toHaveLength(1);

    repository.holdNextRead();
    const reloading = cache.reload(); // reads the row while it still says enabled
    cache.setStatus(id, ChannelStatus.autoDisabled);
    expect(cache.tiers('default', 'race-model-1')).toHaveLength(0);
    await disabledInDatabase(id);
    cache.statusWritten(id);
    repository.releaseRead();
    await reloading;

    expect(cache.get(id)?.status).toBe(ChannelStatus.autoDisabled);
    expect(cache.tiers('default', 'race-model-1')).toHaveLength(0);
  });

  it('keeps the in-memory status through reloads until the write is done', async () => {
    const id = await seedChannel(testApp, { key: 'race-2', baseUrl: 'http://127.0.0.1:9', models: ['race-model-2'] });
    const cache = new ChannelCache(new RelayCacheRepository(testApp.context.database.db));
    await cache.reload();
    cache.setStatus(id, ChannelStatus.autoDisabled, '{"status_reason":"dead key"}');
    await cache.reload(); // the database still says enabled
    expect(cache.get(id)).toMatchObject({ status: ChannelStatus.autoDisabled, otherInfo: '{"status_reason":"dead key"}' });
    expect(cache.tiers('default', 'race-model-2')).toHaveLength(0);

    // The write failed: once told so, the rows are the truth again.
    cache.statusWritten(id);
    await cache.reload();
    expect(cache.get(id)?.status).toBe(ChannelStatus.enabled);
    expect(cache.tiers('default', 'race-model-2')).toHaveLength(1);
  });
});

describe.each(sqlite)('channel keys in the relay cache on $dialect', (database) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp(database);
  });
  afterAll(async () => testApp.close());

  it('splits plain keys by line but keeps a pretty-printed JSON credential whole', async () => {
    const plain = await seedChannel(testApp, {
      name: 'multi-key',
      key: 'sk-one\r\n  sk-two \n\nsk-three',
      baseUrl: 'http://127.0.0.1:9',
      models: ['keys-model-1'],
    });
    // A Vertex service account as Google downloads it: two-space indented JSON over many lines.
    const account = JSON.stringify(
      {
        type: 'service_account',
        project_id: 'p-1',
        private_key: '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n',
        client_email: 'a@p-1.iam.gserviceaccount.com',
      },
      null,
      2,
    );
    const vertex = await seedChannel(testApp, { type: 41, name: 'vertex', key: `\n${account}\n`, baseUrl: 'http://127.0.0.1:9', models: ['keys-model-2'] });
    expect(testApp.app.relay.channels.get(plain)?.keys).toEqual(['sk-one', 'sk-two', 'sk-three']);
    expect(testApp.app.relay.channels.get(vertex)?.keys).toEqual([account]);
  });
});

describe.each(sqlite)('channel request shaping read with the channels on $dialect', (database) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp(database);
  });
  afterAll(async () => testApp.close());

  it('parses the overrides once per load, and says once per load which stored column it ignores, never its text', async () => {
    const valid = await seedChannel(testApp, { key: 'shaped', baseUrl: 'http://127.0.0.1:9', models: ['shaped-model'], paramOverride: '{"temperature":0}' });
    const broken = await seedChannel(testApp, {
      key: 'moved-over',
      baseUrl: 'http://127.0.0.1:9',
      models: ['shaped-model'],
      paramOverride: '{"temperature":',
      headerOverride: '{"x-secret":"sk-do-not-log\\r\\n"}',
    });
    const warnings: Array<{ channelId: number; fields: readonly string[] }> = [];
    const cache = new ChannelCache(new RelayCacheRepository(testApp.context.database.db), (channelId, fields) => warnings.push({ channelId, fields }));
    await cache.reload();
    expect(warnings).toEqual([{ channelId: broken, fields: ['param_override', 'header_override'] }]);
    expect(JSON.stringify(warnings)).not.toContain('sk-do-not-log');
    expect(cache.get(broken)?.shaping?.paramOverride).toBeUndefined();
    const parsed = cache.get(valid)?.shaping?.paramOverride;
    expect(parsed).toEqual({ kind: 'classic', fields: { temperature: 0 } });
    // Requests read the parsed override; another load parses (and warns) again, once.
    await cache.reload();
    expect(warnings).toHaveLength(2);
  });
});
