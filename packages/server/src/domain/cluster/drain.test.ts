import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../core/platform/database.ts';
import { startFakeChatUpstream } from '../../testing/fake-chat-upstream.ts';
import { loginAs, loginAsRoot, startRunningGateway, type RootSession, type RunningGateway } from '../../testing/running-gateway.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { recordRunFigures } from '../../testing/run-figures.ts';

/**
 * Balances drained by callers that keep asking, through every process of the deployment: two worker
 * processes behind a primary (the default on this machine), and two such instances sharing the
 * database and Redis. Each process admits against the same account of the balance (the primary's
 * book, or Redis), so the balance ends within one request's cost of zero, in both directions; and a
 * token's request limit counts the deployment's requests (the primary's count, or Redis).
 */
const rootPassword = 'drain-root-pass';
const userPassword = 'drain-user-pass';
const callers = 20;
/** Refusals in a row after which a caller believes the balance is spent. */
const patience = 40;
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Each drain's figures, one JSON line per balance, in DRAIN_FIGURES_FILE when set (the "10 runs each"). */
function recordFigures(label: string, drained: 'token' | 'user', figures: { balance: number; spent: number; cost: number }): void {
  recordRunFigures('DRAIN_FIGURES_FILE', { label, drained, ...figures, overBy: figures.spent - figures.balance });
}

const chatBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });

/** Calls the relay with `keys` in turn until `patience` refusals in a row; answers how many were served. */
async function keepAsking(baseUrls: readonly string[], keys: readonly string[]): Promise<number> {
  let served = 0;
  await Promise.all(
    Array.from({ length: callers }, async (_unused, caller) => {
      let refusals = 0;
      for (let call = caller; refusals < patience; call += 1) {
        const answer = await fetch(`${baseUrls[call % baseUrls.length]}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer sk-${keys[call % keys.length]}`, 'content-type': 'application/json' },
          body: chatBody,
        });
        await answer.arrayBuffer();
        if (answer.status === 200) {
          served += 1;
          refusals = 0;
        } else {
          expect([401, 403]).toContain(answer.status);
          refusals += 1;
        }
      }
    }),
  );
  return served;
}

async function createToken(session: RootSession, name: string, remainQuota: number, unlimited: boolean): Promise<string> {
  const created = await session.post<{ success: boolean; data: Array<{ key: string }> }>('/api/token/', {
    name,
    remain_quota: remainQuota,
    expired_time: -1,
    unlimited_quota: unlimited,
  });
  expect(created.success).toBe(true);
  return created.data[0]!.key;
}

interface Deployment {
  readonly gateways: RunningGateway[];
  readonly handle: Awaited<ReturnType<typeof openDatabase>>;
  close(): Promise<void>;
}

async function startDeployment(database: ReturnType<typeof testDatabases>[number], instances: number, redisUrl?: string): Promise<Deployment> {
  // A migrated copy: migrating MariaDB from empty took 25-30 s on a loaded machine, past the 30 s a
  // gateway has to answer at start, and is not what this test measures.
  const created = await database.createMigrated();
  const folder = mkdtempSync(join(tmpdir(), 'sb-drain-'));
  folders.push(folder);
  const env = {
    WORKERS: '2',
    SQL_DSN: created.sqlDsn,
    SQLITE_PATH: created.sqlitePath || join(folder, 'gateway.db'),
    SESSION_SECRET: 'drain-session-secret',
    LOG_LEVEL: 'info',
    INITIAL_ROOT_PASSWORD: rootPassword,
    ...(redisUrl ? { REDIS_CONN_STRING: redisUrl } : {}),
  };
  const gateways: RunningGateway[] = [];
  const handle = await openDatabase(env.SQL_DSN, env.SQLITE_PATH);
  const close = async () => {
    for (const gateway of gateways) if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
    await handle.close();
    await created.drop();
  };
  try {
    // One after the other, as the first creates root alone. Each instance has its own journal.
    for (let instance = 0; instance < instances; instance += 1) {
      const gateway = await startRunningGateway({ ...env, QUOTA_JOURNAL_DIR: join(folder, `journal-${instance}`) }, folder);
      gateways.push(gateway);
      await expect.poll(() => gateway.output().includes('with 2 worker processes'), { timeout: 60_000 }).toBe(true);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { gateways, handle, close };
}

/** The quota one answer of the fake upstream costs, read from the database once it is written. */
async function costOfOneAnswer(deployment: Deployment, session: RootSession): Promise<number> {
  const key = await createToken(session, 'measure', 0, true);
  const answer = await fetch(`${deployment.gateways[0]!.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
    body: chatBody,
  });
  expect(answer.status).toBe(200);
  const used = async () =>
    Number((await deployment.handle.db.selectFrom('tokens').select('used_quota').where('key', '=', key).executeTakeFirstOrThrow()).used_quota);
  await expect.poll(used, { timeout: 5_000 }).toBeGreaterThan(0);
  return used();
}

/** The consume rows' total for the user, once every process has written its charges. */
async function spentByUser(deployment: Deployment, userId: number, expected: number): Promise<number> {
  const logged = async () => {
    const rows = await deployment.handle.db.selectFrom('logs').select('quota').where('type', '=', 2).where('user_id', '=', userId).execute();
    return rows.reduce((sum, row) => sum + Number(row.quota), 0);
  };
  // Written within a flush interval; the poll ends once the total stops short of nothing it served.
  await expect.poll(logged, { timeout: 5_000 }).toBe(expected);
  return logged();
}

async function drainRuns(deployment: Deployment, label: string): Promise<void> {
  const baseUrls = deployment.gateways.map((gateway) => gateway.baseUrl);
  const root = await loginAsRoot(baseUrls[0]!, rootPassword);
  expect(
    (await root.post('/api/channel/', { type: 1, name: 'fake', key: 'sk-upstream', base_url: upstreamUrl, models: 'gpt-4o-mini', group: 'default' })).success,
  ).toBe(true);
  // About 2,000 units an answer (5 prompt and 2 completion tokens), far below the hold new-api takes
  // (500 tokens) and the worst case of a request without max_tokens (the model's 16K output tokens).
  const ratio = await root.put<{ success: boolean }>('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ 'gpt-4o-mini': 154.6 }) });
  expect(ratio.success).toBe(true);
  const made = await root.post<{ success: boolean }>('/api/user/', { username: 'drainer', password: userPassword });
  expect(made.success).toBe(true);
  const userId = Number((await deployment.handle.db.selectFrom('users').select('id').where('username', '=', 'drainer').executeTakeFirstOrThrow()).id);
  const user = await loginAs(baseUrls[0]!, 'drainer', userPassword);
  const setBalance = async (quota: number) => expect((await root.put('/api/user/', { id: userId, quota })).success).toBe(true);
  await setBalance(1_000_000_000);
  const cost = await costOfOneAnswer(deployment, user);

  // A token's remaining quota: thirty and a half answers, the user's own balance plentiful.
  const tokenBalance = Math.round(30.5 * cost);
  const tokenKey = await createToken(user, 'drained', tokenBalance, false);
  const servedByToken = await keepAsking(baseUrls, [tokenKey]);
  const tokenRow = await deployment.handle.db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('key', '=', tokenKey).executeTakeFirstOrThrow();
  await expect
    .poll(
      async () =>
        Number((await deployment.handle.db.selectFrom('tokens').select('used_quota').where('key', '=', tokenKey).executeTakeFirstOrThrow()).used_quota),
      { timeout: 5_000 },
    )
    .toBe(servedByToken * cost);
  recordFigures(label, 'token', { balance: tokenBalance, spent: servedByToken * cost, cost });
  expect(servedByToken * cost).toBeLessThanOrEqual(tokenBalance + cost);
  expect(servedByToken * cost).toBeGreaterThan(tokenBalance - cost);
  expect(Number(tokenRow.remain_quota) + Number(tokenRow.used_quota)).toBe(tokenBalance);

  // A user's balance spread over five unlimited tokens: the user is the edge.
  const before = await spentByUser(deployment, userId, cost * (1 + servedByToken));
  const userBalance = Math.round(30.5 * cost);
  await setBalance(userBalance);
  const keys = await Promise.all(Array.from({ length: 5 }, (_unused, index) => createToken(user, `spread-${index}`, 0, true)));
  const servedByUser = await keepAsking(baseUrls, keys);
  const spent = (await spentByUser(deployment, userId, before + servedByUser * cost)) - before;
  recordFigures(label, 'user', { balance: userBalance, spent, cost });
  expect(spent).toBeLessThanOrEqual(userBalance + cost);
  expect(spent).toBeGreaterThan(userBalance - cost);
  const userRow = await deployment.handle.db.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow();
  expect(Number(userRow.quota)).toBe(userBalance - spent);
  // A token's requests per minute hold for the deployment, not once per process.
  await setBalance(1_000_000_000);
  const limited = await user.post<{ success: boolean; data: Array<{ key: string }> }>('/api/token/', {
    name: 'limited',
    remain_quota: 0,
    expired_time: -1,
    unlimited_quota: true,
    rpm_limit: 5,
  });
  expect(limited.success).toBe(true);
  const minuteBefore = Math.floor(Date.now() / 60_000);
  const statuses = await Promise.all(
    Array.from({ length: 30 }, async (_unused, call) => {
      const answer = await fetch(`${baseUrls[call % baseUrls.length]}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${limited.data[0]!.key}`, 'content-type': 'application/json' },
        body: chatBody,
      });
      await answer.arrayBuffer();
      return answer.status;
    }),
  );
  // A burst that crossed into the next minute may use that minute's requests too.
  const minutes = Math.floor(Date.now() / 60_000) - minuteBefore + 1;
  const served = statuses.filter((status) => status === 200).length;
  expect(served, `statuses ${statuses.join(' ')}`).toBeGreaterThanOrEqual(5);
  expect(served).toBeLessThanOrEqual(5 * minutes);
  expect(statuses.filter((status) => status !== 200).every((status) => status === 429)).toBe(true);
}

let upstreamUrl = '';

/** Starts the deployment with a fake upstream, drains, and stops everything. */
async function drainThrough(database: ReturnType<typeof testDatabases>[number], instances: number, redis?: string): Promise<void> {
  const upstream = await startFakeChatUpstream();
  upstreamUrl = upstream.url;
  const deployment = await startDeployment(database, instances, redis);
  try {
    await drainRuns(deployment, `${database.dialect} ${instances}×2${redis ? ' redis' : ''}`);
  } finally {
    await deployment.close();
    await upstream.close();
  }
}

const scenario = 'ends within one answer of zero, for a token and for a user with five tokens, and counts request limits once';

describe.each(testDatabases())('a balance drained through two worker processes on $dialect', (database) => {
  // Up to four gateway starts and two drains: starts alone took over 30 s on the loaded 2-core machine.
  it(scenario, () => drainThrough(database, 1), 240_000);
});

const redisUrl = process.env.TEST_REDIS_URL;
const shared = testDatabases().filter((database) => database.dialect !== 'sqlite');

describe.skipIf(!redisUrl || shared.length === 0).each(shared)('a balance drained through two instances of two workers on $dialect and Redis', (database) => {
  it(scenario, () => drainThrough(database, 2, redisUrl), 240_000);
});
