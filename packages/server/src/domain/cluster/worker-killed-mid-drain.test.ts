import { describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../core/platform/database.ts';
import { startFakeChatUpstream } from '../../testing/fake-chat-upstream.ts';
import { childrenOf, isRunning } from '../../testing/process-tree.ts';
import type { RootSession, RunningGateway } from '../../testing/running-gateway.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { withTwoWorkerGateway } from '../../testing/two-worker-gateway.ts';
import { recordRunFigures } from '../../testing/run-figures.ts';

/**
 * A worker killed with SIGKILL while it holds a slice of a balance (far from the edge, so the primary's
 * book lent it a quarter of the room for the machine), then callers keep asking through the survivor and
 * the replacement until they are refused. The dead worker's charges reach the database through its
 * journal (replayed by the replacement), and its unused slice goes back to the balance: the balance ends
 * spent to within a few answers of zero (unspentAtMost), neither stranded by the dead lease nor spent twice.
 */
const callers = 12;
/**
 * Refusals in a row after which a caller believes the balance is spent. A refusal near the edge comes
 * back at once while the other callers' claims are still in flight (and may end in less than they
 * claimed): callers that keep asking ask on through that, as the issue's drain does.
 */
const patience = 200;
/** Balances of this many answers: a slice is a quarter of the room per holder (spend-lease-book.ts). */
const answersInBalance = 240;
/**
 * How many answers' worth a drain through a worker's death may leave unspent: one, as the issue asks.
 * (Runs used to end 1.5–4.5 answers short: the dead worker had reported charges whose journal records
 * it never wrote, which the book counted as spent; before the departed-lease fix it was 78–122.)
 */
const unspentAtMost = 1;
/** The kill comes after this many answers, while the room is still far from the edge. */
const killAfter = 40;

/** Each drain's figures, one JSON line per balance, in KILL_DRAIN_FIGURES_FILE when set (the distribution over repeated runs). */
function recordFigures(dialect: string, drained: 'token' | 'user', figures: { balance: number; spent: number; served: number; cost: number }): void {
  recordRunFigures('KILL_DRAIN_FIGURES_FILE', { dialect, drained, ...figures, unspentAnswers: (figures.balance - figures.spent) / figures.cost });
}

// max_tokens 2, as the fake upstream answers: the worst case of a request is close to its cost, so a
// balance of a few hundred answers is "far from the edge" and the workers hold slices of it.
const chatBody = JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 2, messages: [{ role: 'user', content: 'hi' }] });

async function relay(baseUrl: string, key: string): Promise<number | 'cut'> {
  try {
    const answer = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: chatBody,
      signal: AbortSignal.timeout(20_000),
    });
    await answer.arrayBuffer();
    return answer.status;
  } catch {
    // The killed worker's connections: the answer may or may not be charged (its journal says).
    return 'cut';
  }
}

const replacementServing = 'the replacement worker process is serving';
const replacements = (gateway: RunningGateway) => gateway.output().split(replacementServing).length - 1;

/**
 * Callers that keep asking on `keys` until refused `patience` times in a row; one worker is killed with
 * SIGKILL once `killAfter` answers came back, and the callers wait for its replacement (which replays
 * its journal) before they go on. Answers how many were served whole and the killed pid.
 */
async function drainKillingOneWorker(gateway: RunningGateway, keys: readonly string[]): Promise<{ served: number; killed: number }> {
  let served = 0;
  let killed = 0;
  let replaced: Promise<unknown> | undefined;
  await Promise.all(
    Array.from({ length: callers }, async (_unused, caller) => {
      let refusals = 0;
      for (let call = caller; refusals < patience; call += 1) {
        if (call > 5_000) throw new Error(`caller ${caller} was never refused; ${served} served`);
        await replaced;
        const status = await relay(gateway.baseUrl, keys[call % keys.length]!);
        if (status === 'cut') continue;
        if (status === 200) {
          served += 1;
          refusals = 0;
          if (served === killAfter) {
            const workers = childrenOf(gateway.child.pid!);
            expect(workers).toHaveLength(2);
            killed = workers[0]!;
            const before = replacements(gateway);
            process.kill(killed, 'SIGKILL');
            replaced = expect.poll(() => replacements(gateway), { timeout: 60_000 }).toBeGreaterThan(before);
          }
        } else {
          expect([401, 403]).toContain(status);
          refusals += 1;
        }
      }
    }),
  );
  return { served, killed };
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

/** The consume rows' total and count for the user (written by the flushers and the journal replay). */
async function consumed(database: DatabaseHandle, userId: number): Promise<{ rows: number; quota: number }> {
  const rows = await database.db.selectFrom('logs').select('quota').where('type', '=', 2).where('user_id', '=', userId).execute();
  return { rows: rows.length, quota: rows.reduce((sum, row) => sum + Number(row.quota), 0) };
}

async function userRow(database: DatabaseHandle, userId: number): Promise<{ quota: number; used: number }> {
  const row = await database.db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', userId).executeTakeFirstOrThrow();
  return { quota: Number(row.quota), used: Number(row.used_quota) };
}

const engines = testDatabases().filter((database) => database.dialect !== 'mysql');

describe.each(engines)('a worker killed while it holds a slice of a balance, on $dialect', (database) => {
  it('loses and doubles no charge, and its unused slice is spent by the others', async () => {
    const upstream = await startFakeChatUpstream();
    try {
      await withTwoWorkerGateway(database, {}, async ({ gateway, database: handle, root }) => {
        const channel = await root.post('/api/channel/', {
          type: 1,
          name: 'fake',
          key: 'sk-upstream',
          base_url: upstream.url,
          models: 'gpt-4o-mini',
          group: 'default',
        });
        expect(channel.success).toBe(true);
        expect((await root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ 'gpt-4o-mini': 154.6 }) })).success).toBe(true);
        const setUserQuota = async (quota: number) => expect((await root.put('/api/user/', { id: root.id, quota })).success).toBe(true);
        await setUserQuota(1_000_000_000);

        // One answer's cost, read back from its log row.
        const measure = await createToken(root, 'measure', 0, true);
        expect(await relay(gateway.baseUrl, measure)).toBe(200);
        await expect.poll(async () => (await consumed(handle, root.id)).rows, { timeout: 10_000 }).toBe(1);
        const cost = (await consumed(handle, root.id)).quota;

        // A token's remaining quota, the user's balance plentiful; a worker dies holding a slice of it.
        const tokenBalance = answersInBalance * cost + Math.floor(cost / 2);
        const tokenKey = await createToken(root, 'drained', tokenBalance, false);
        const tokenDrain = await drainKillingOneWorker(gateway, [tokenKey]);
        expect(tokenDrain.killed).toBeGreaterThan(0);
        const tokenUsed = async () =>
          Number((await handle.db.selectFrom('tokens').select('used_quota').where('key', '=', tokenKey).executeTakeFirstOrThrow()).used_quota);
        // Every charge in the database, the dead worker's through its journal: one log row per answer.
        // (Waited for by count first: the flushers write in batches, and the two totals below agree at
        // every batch, not only at the last one.)
        await expect.poll(async () => (await consumed(handle, root.id)).rows - 1, { timeout: 15_000 }).toBeGreaterThanOrEqual(tokenDrain.served);
        await expect.poll(async () => (await consumed(handle, root.id)).quota - cost, { timeout: 15_000 }).toBe(await tokenUsed());
        const tokenSpent = await tokenUsed();
        const token = await handle.db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('key', '=', tokenKey).executeTakeFirstOrThrow();
        expect(Number(token.remain_quota) + Number(token.used_quota)).toBe(tokenBalance);
        recordFigures(database.dialect, 'token', { balance: tokenBalance, spent: tokenSpent, served: tokenDrain.served, cost });
        const tokenContext = `token: ${tokenDrain.served} served whole, ${tokenSpent / cost} charged, balance ${tokenBalance / cost} answers`;
        expect(tokenSpent, tokenContext).toBeGreaterThan(tokenBalance - unspentAtMost * cost);
        expect(tokenSpent, tokenContext).toBeLessThanOrEqual(tokenBalance + cost);
        expect(tokenSpent / cost, tokenContext).toBeGreaterThanOrEqual(tokenDrain.served);
        expect(isRunning(tokenDrain.killed)).toBe(false);

        // The user's own balance, spent through an unlimited token; the other worker of the start dies now.
        await expect.poll(() => childrenOf(gateway.child.pid!).filter(isRunning).length, { timeout: 30_000 }).toBe(2);
        const before = await consumed(handle, root.id);
        const userBalance = answersInBalance * cost + Math.floor(cost / 2);
        await setUserQuota(userBalance);
        const usedBefore = (await userRow(handle, root.id)).used;
        const spreadKey = await createToken(root, 'spread', 0, true);
        const userDrain = await drainKillingOneWorker(gateway, [spreadKey]);
        const userSpent = async () => (await consumed(handle, root.id)).quota - before.quota;
        await expect.poll(async () => (await consumed(handle, root.id)).rows - before.rows, { timeout: 15_000 }).toBeGreaterThanOrEqual(userDrain.served);
        await expect.poll(async () => (await userRow(handle, root.id)).used - usedBefore, { timeout: 15_000 }).toBe(await userSpent());
        const spent = await userSpent();
        const after = await userRow(handle, root.id);
        expect(after.quota).toBe(userBalance - spent);
        recordFigures(database.dialect, 'user', { balance: userBalance, spent, served: userDrain.served, cost });
        const userContext = `user: ${userDrain.served} served whole, ${spent / cost} charged, balance ${userBalance / cost} answers`;
        expect(spent, userContext).toBeGreaterThan(userBalance - unspentAtMost * cost);
        expect(spent, userContext).toBeLessThanOrEqual(userBalance + cost);
        expect(spent / cost, userContext).toBeGreaterThanOrEqual(userDrain.served);
        expect(gateway.output()).toContain('a worker process died; starting another');
      });
    } finally {
      await upstream.close();
    }
    // Two gateway starts and a replacement per drain: about 30 s alone, 100 s beside other suites on 2 cores.
  }, 240_000);
});
