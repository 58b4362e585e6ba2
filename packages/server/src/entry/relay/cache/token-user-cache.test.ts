import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenStatus, UserStatus } from '@switchboard/contracts';
import { QuotaLedger } from '../../../domain/billing/quota-ledger.ts';
import { sqlTimestamp } from '../../../core/db/dialect.ts';
import { createTestApp, createTestUser, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { seedToken } from '../testing/relay-seed.ts';
import { authenticateToken } from '../pipeline/caller-auth.ts';
import { KeyGuessGuard } from '../pipeline/key-guess-guard.ts';
import { RelayCacheRepository, type TokenRow, type UserRow } from './relay-cache.repository.ts';
import { TokenCache } from './token-cache.ts';
import { UserCache } from './user-cache.ts';

/** A repository whose batch reads can be held after they have read the rows (a slow periodic reload). */
class HeldRepository extends RelayCacheRepository {
  private hold: Promise<void> | undefined;
  private release: (() => void) | undefined;

  holdNextBatchRead(): void {
    this.hold = new Promise((resolve) => (this.release = resolve));
  }

  releaseBatchRead(): void {
    this.release?.();
  }

  private async held<T>(rows: T): Promise<T> {
    const hold = this.hold;
    this.hold = undefined;
    if (hold) await hold;
    return rows;
  }

  override async tokensByIds(ids: readonly number[]): Promise<TokenRow[]> {
    return this.held(await super.tokensByIds(ids));
  }

  override async usersByIds(ids: readonly number[]): Promise<UserRow[]> {
    return this.held(await super.usersByIds(ids));
  }
}

/** A repository whose next single-row read answers the row as it was, but only when released (a slow connection). */
class SlowSingleReadRepository extends RelayCacheRepository {
  private slow: { release: () => void; held: Promise<void> } | undefined;
  singleReads = 0;

  slowDownNextSingleRead(): () => void {
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    this.slow = { release, held };
    return release;
  }

  private async single<T>(read: () => Promise<T>): Promise<T> {
    this.singleReads += 1;
    const slow = this.slow;
    this.slow = undefined;
    const row = await read();
    if (slow) await slow.held;
    return row;
  }

  override tokenById(id: number): Promise<TokenRow | undefined> {
    return this.single(() => super.tokenById(id));
  }

  override tokenByKey(key: string): Promise<TokenRow | undefined> {
    return this.single(() => super.tokenByKey(key));
  }

  override userById(id: number): Promise<UserRow | undefined> {
    return this.single(() => super.userById(id));
  }
}

const sqlite = testDatabases().filter((database) => database.dialect === 'sqlite');

describe.each(sqlite)('token and user caches: a reload racing a single change on $dialect', (database) => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp(database);
  });
  afterAll(async () => testApp.close());

  it('keeps a token disabled when a full reload read it before the disable', async () => {
    const user = await createTestUser(testApp);
    const token = await seedToken(testApp, user.id);
    const repository = new HeldRepository(testApp.context.database.db);
    const tokens = new TokenCache(repository, new QuotaLedger(), () => Date.now());
    await tokens.lookup(token.key);

    repository.holdNextBatchRead();
    const fullReload = tokens.reloadCached(); // reads the token while it is still enabled
    await testApp.context.database.db.updateTable('tokens').set({ status: TokenStatus.disabled }).where('id', '=', token.id).execute();
    await tokens.reload(token.id); // what the change bus triggers after the write
    repository.releaseBatchRead();
    await fullReload;

    expect(tokens.getById(token.id)?.status).toBe(TokenStatus.disabled);
    // The next full reload takes the database as it is.
    await tokens.reloadCached();
    expect(tokens.getById(token.id)?.status).toBe(TokenStatus.disabled);
  });

  it('keeps a user banned when a full reload read them before the ban', async () => {
    const user = await createTestUser(testApp);
    const repository = new HeldRepository(testApp.context.database.db);
    const users = new UserCache(repository, new QuotaLedger());
    await users.lookup(user.id);

    repository.holdNextBatchRead();
    const fullReload = users.reloadCached();
    await testApp.context.database.db.updateTable('users').set({ status: UserStatus.disabled }).where('id', '=', user.id).execute();
    await users.reload(user.id);
    repository.releaseBatchRead();
    await fullReload;

    expect(users.get(user.id)?.status).toBe(UserStatus.disabled);
  });

  it("keeps a re-enabled token enabled when the disable's re-read answers after the enable's", async () => {
    const user = await createTestUser(testApp);
    const token = await seedToken(testApp, user.id);
    const repository = new SlowSingleReadRepository(testApp.context.database.db);
    const tokens = new TokenCache(repository, new QuotaLedger(), () => Date.now());
    await tokens.lookup(token.key);
    const setStatus = (status: number) => testApp.context.database.db.updateTable('tokens').set({ status }).where('id', '=', token.id).execute();

    await setStatus(TokenStatus.disabled);
    const release = repository.slowDownNextSingleRead();
    const disableReread = tokens.reload(token.id); // reads "disabled", answers late
    await setStatus(TokenStatus.enabled);
    let disableDone = false;
    void disableReread.then(() => (disableDone = true));
    await tokens.reload(token.id);
    expect(tokens.getById(token.id)?.status).toBe(TokenStatus.enabled);
    release();
    await disableReread;
    expect(disableDone).toBe(true);
    expect(tokens.getById(token.id)?.status).toBe(TokenStatus.enabled);
  });

  it("makes a call wait for its token's or user's re-read in flight: a worker that confirms a change late does not serve the old row", async () => {
    // console-writes-in-force.test.ts on a loaded machine: "token enabled again" was confirmed, and the
    // calls right after were refused as disabled. The primary answers the console without a worker
    // that has not confirmed within its wait (1 s), and a worker's re-read waits behind its batch
    // write, which waits for the busy primary: the change had reached the worker, its row had not.
    const user = await createTestUser(testApp);
    const token = await seedToken(testApp, user.id);
    const repository = new SlowSingleReadRepository(testApp.context.database.db);
    const ledger = new QuotaLedger();
    const tokens = new TokenCache(repository, ledger, () => Date.now());
    const users = new UserCache(repository, ledger);
    const call = () =>
      authenticateToken({ key: token.key, pinnedChannelId: undefined }, '127.0.0.1', {
        tokens,
        users,
        options: testApp.context.options,
        nowSeconds: Math.floor(Date.now() / 1000),
        keyGuesses: new KeyGuessGuard(testApp.context.clock),
      });
    const setTokenStatus = (status: number) => testApp.context.database.db.updateTable('tokens').set({ status }).where('id', '=', token.id).execute();
    const setUserStatus = (status: number) => testApp.context.database.db.updateTable('users').set({ status }).where('id', '=', user.id).execute();
    const outcomeOf = (calling: Promise<unknown>) => {
      const seen: { outcome?: string } = {};
      calling.then(
        () => (seen.outcome = 'admitted'),
        (error: { code?: string }) => (seen.outcome = error.code ?? 'failed'),
      );
      return seen;
    };
    await setTokenStatus(TokenStatus.disabled);
    await expect(call()).rejects.toMatchObject({ code: 'token_unavailable' });

    // The enable is written and its change has reached this worker; its re-read answers late.
    await setTokenStatus(TokenStatus.enabled);
    const releaseToken = repository.slowDownNextSingleRead();
    const tokenReloading = tokens.reload(token.id);
    const afterEnable = outcomeOf(call());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(afterEnable.outcome).toBeUndefined();
    releaseToken();
    await tokenReloading;
    await expect.poll(() => afterEnable.outcome).toBe('admitted');

    // The same for the token's owner: banned, and the ban's re-read in flight.
    await setUserStatus(UserStatus.disabled);
    const releaseUser = repository.slowDownNextSingleRead();
    const userReloading = users.reload(user.id);
    const afterBan = outcomeOf(call());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(afterBan.outcome).toBeUndefined();
    releaseUser();
    await userReloading;
    await expect.poll(() => afterBan.outcome).toBe('user_banned');
  });

  it('answers every simultaneous lookup of a user new to the process with one read', async () => {
    const user = await createTestUser(testApp);
    const repository = new SlowSingleReadRepository(testApp.context.database.db);
    const users = new UserCache(repository, new QuotaLedger());
    const found = await Promise.all(Array.from({ length: 50 }, () => users.lookup(user.id)));
    expect(found.map((record) => record?.id)).toEqual(Array(50).fill(user.id));
    expect(repository.singleReads).toBe(1);
  });

  it("lets an older re-read of a user resolve with the newer one's record", async () => {
    const user = await createTestUser(testApp);
    const repository = new SlowSingleReadRepository(testApp.context.database.db);
    const users = new UserCache(repository, new QuotaLedger());
    const release = repository.slowDownNextSingleRead();
    const older = users.lookup(user.id); // the first read, answering late
    await testApp.context.database.db.updateTable('users').set({ status: UserStatus.disabled }).where('id', '=', user.id).execute();
    const newer = await users.reload(user.id); // what the change bus triggers after the write
    release();
    expect((await older)?.status).toBe(UserStatus.disabled);
    expect(newer?.status).toBe(UserStatus.disabled);
    expect(users.get(user.id)?.status).toBe(UserStatus.disabled);
  });

  it('answers every simultaneous first use of a token with one read', async () => {
    const user = await createTestUser(testApp);
    const token = await seedToken(testApp, user.id);
    const repository = new SlowSingleReadRepository(testApp.context.database.db);
    const tokens = new TokenCache(repository, new QuotaLedger(), () => Date.now());
    const found = await Promise.all(Array.from({ length: 50 }, () => tokens.lookup(token.key)));
    expect(new Set(found).size).toBe(1);
    expect(found[0]?.id).toBe(token.id);
    expect(repository.singleReads).toBe(1);
  });

  it('reads a token again when the change bus names it while its first read is in flight', async () => {
    const user = await createTestUser(testApp);
    const token = await seedToken(testApp, user.id);
    const repository = new SlowSingleReadRepository(testApp.context.database.db);
    const tokens = new TokenCache(repository, new QuotaLedger(), () => Date.now());
    const release = repository.slowDownNextSingleRead();
    const firstUse = tokens.lookup(token.key); // reads "enabled", answers late
    await testApp.context.database.db.updateTable('tokens').set({ status: TokenStatus.disabled }).where('id', '=', token.id).execute();
    await tokens.reload(token.id); // not held: nothing is read now
    expect(repository.singleReads).toBe(1);
    release();
    expect((await firstUse)?.status).toBe(TokenStatus.disabled);
    expect(repository.singleReads).toBe(2);
  });

  it('reads nothing when the change bus names a token or user it does not hold', async () => {
    const user = await createTestUser(testApp);
    const token = await seedToken(testApp, user.id);
    const repository = new SlowSingleReadRepository(testApp.context.database.db);
    const tokens = new TokenCache(repository, new QuotaLedger(), () => Date.now());
    const users = new UserCache(repository, new QuotaLedger());
    await tokens.reload(token.id);
    expect(await users.reload(user.id)).toBeUndefined();
    expect(repository.singleReads).toBe(0);
    expect(tokens.getById(token.id)).toBeUndefined();
    expect(users.get(user.id)).toBeUndefined();
  });

  it('drops from memory a token deleted since, at the periodic reload of what is held', async () => {
    const user = await createTestUser(testApp);
    const token = await seedToken(testApp, user.id);
    const tokens = new TokenCache(new RelayCacheRepository(testApp.context.database.db), new QuotaLedger(), () => Date.now());
    await tokens.lookup(token.key);
    await testApp.context.database.db
      .updateTable('tokens')
      .set({ deleted_at: sqlTimestamp(new Date(), testApp.context.database.dialect) })
      .where('id', '=', token.id)
      .execute();
    await tokens.reloadCached();
    expect(tokens.getById(token.id)).toBeUndefined();
    expect(tokens.get(token.key)).toBeUndefined();
  });

  it("keeps another process's charge that is written and announced while a token's and user's first reads are in flight", async () => {
    const user = await createTestUser(testApp, { quota: 1_000_000 });
    const token = await seedToken(testApp, user.id, { remainQuota: 100_000 });
    const repository = new SlowSingleReadRepository(testApp.context.database.db);
    const tokens = new TokenCache(repository, new QuotaLedger(), () => Date.now());
    const users = new UserCache(repository, new QuotaLedger());
    const { db } = testApp.context.database;

    const releaseToken = repository.slowDownNextSingleRead();
    const tokenRead = tokens.lookup(token.key); // reads the row before the other process's write
    const releaseUser = repository.slowDownNextSingleRead();
    const userRead = users.lookup(user.id);
    // Another process writes a charge of 45, then announces it (the quota broadcast).
    await db
      .updateTable('tokens')
      .set({ remain_quota: 100_000 - 45, used_quota: 45 })
      .where('id', '=', token.id)
      .execute();
    await db
      .updateTable('users')
      .set({ quota: 1_000_000 - 45, used_quota: 45, request_count: 1 })
      .where('id', '=', user.id)
      .execute();
    tokens.applyRemoteDelta(token.id, -45, 45);
    users.applyRemoteDelta(user.id, -45, 45, 1);
    releaseToken();
    releaseUser();

    expect((await tokenRead)?.remainQuota).toBe(100_000 - 45);
    expect((await userRead)?.quota).toBe(1_000_000 - 45);
    await users.reload(user.id);
    expect(users.get(user.id)?.requestCount).toBe(1);
  });

  it('answers a first read overtaken by a newer one with the user even when the newer record was evicted since', async () => {
    const user = await createTestUser(testApp);
    const other = await createTestUser(testApp);
    const repository = new SlowSingleReadRepository(testApp.context.database.db);
    const users = new UserCache(repository, new QuotaLedger(), 1);
    const release = repository.slowDownNextSingleRead();
    const firstRead = users.lookup(user.id); // answers late
    users.applyRemoteDelta(user.id, 0, 0, 0); // another process wrote: a newer read starts, and applies first
    await expect.poll(() => users.get(user.id)?.id).toBe(user.id);
    await users.lookup(other.id); // evicts the user (a cache of one)
    expect(users.get(user.id)).toBeUndefined();
    release();
    expect((await firstRead)?.id).toBe(user.id);
  });
});
