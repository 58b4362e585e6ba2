import { request } from 'node:http';
import { safeParseJson } from '../core/platform/safe-json.ts';
import { loginAs, loginAsRoot, type RootSession } from './running-gateway.ts';

/**
 * Console writes that change what the relay decides, each followed at once by relay calls in
 * parallel on fresh connections (so a machine's workers, or the instances, share them): every call
 * must follow the state the console has just confirmed. Used against running gateways (WORKERS=1,
 * WORKERS=2, two instances sharing Redis).
 */

/** One relay call's outcome: `200`, or the status and the error code (`401 token_unavailable`). */
type Answer = string;

/** A console write, and what every relay call made right after its answer must get. */
interface Step {
  readonly write: () => Promise<{ success: boolean; message?: string }>;
  readonly call: () => Promise<Answer>;
  readonly expected: Answer;
}

export interface Case {
  readonly name: string;
  /** The writes of one round, in order (for example: disable, then enable again). */
  readonly steps: readonly Step[];
}

/** What went wrong over the rounds: calls that followed the old state, and writes that failed. */
export interface RoundsReport {
  readonly calls: number;
  readonly wrong: Array<{ case: string; round: number; step: number; answers: Answer[] }>;
}

/** A chat call on a connection of its own (no keep-alive pool), so successive calls reach different workers. */
export function relayOnFreshConnection(baseUrl: string, key: string, model: string): Promise<Answer> {
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] });
  return new Promise((resolve) => {
    const call = request(
      `${baseUrl}/v1/chat/completions`,
      { method: 'POST', agent: false, headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json', connection: 'close' } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          if (answer.statusCode === 200) return resolve('200');
          const parsed = safeParseJson(Buffer.concat(chunks).toString('utf8'));
          const code = parsed.ok ? ((parsed.value as { error?: { code?: string } } | null)?.error?.code ?? '') : 'unreadable';
          resolve(`${answer.statusCode} ${code}`);
        });
      },
    );
    call.on('error', (error) => resolve(`error ${error.message}`));
    call.end(body);
  });
}

/** Runs every case `rounds` times; after each confirmed write, `callsPerStep` calls at once. */
export async function runRounds(cases: readonly Case[], rounds: number, callsPerStep: number): Promise<RoundsReport> {
  const wrong: RoundsReport['wrong'] = [];
  let calls = 0;
  for (const each of cases) {
    for (let round = 0; round < rounds; round += 1) {
      for (const [index, step] of each.steps.entries()) {
        const written = await step.write();
        if (!written.success) throw new Error(`${each.name}, round ${round}, step ${index}: the console refused the write: ${written.message ?? ''}`);
        const answers = await Promise.all(Array.from({ length: callsPerStep }, () => step.call()));
        calls += answers.length;
        if (answers.some((answer) => answer !== step.expected)) wrong.push({ case: each.name, round, step: index, answers });
      }
    }
  }
  return { calls, wrong };
}

interface Created {
  success: boolean;
  message: string;
  data: number[];
}

/** A model no price is set for: the relay serves it only while self-use mode is on. */
const unpricedModel = 'in-force-unpriced-model';

/**
 * The five cases of the issue on a fresh gateway: a token disabled and enabled, a user disabled and
 * enabled, a channel created and deleted, a user's quota from 0 and back, an option that refuses a
 * model. The console writes go to `consoleUrl`; the relay calls are spread over `relayUrls`.
 */
export async function prepareCases(consoleUrl: string, relayUrls: readonly string[], rootPassword: string, upstreamUrl: string): Promise<Case[]> {
  const root = await loginAsRoot(consoleUrl, rootPassword);
  let next = 0;
  const relayTo =
    (key: string, model = 'gpt-4o-mini') =>
    () =>
      relayOnFreshConnection(relayUrls[next++ % relayUrls.length]!, key, model);
  const channel = (name: string, models: string) =>
    root.post<Created>('/api/channel/', { type: 1, name, key: 'sk-upstream', base_url: upstreamUrl, models, group: 'default' });
  const served = await channel('in-force', `gpt-4o-mini,${unpricedModel}`);
  if (!served.success) throw new Error(`channel not created: ${served.message}`);

  const rootKey = await newToken(root, 'in-force-root');
  const [banned, spender] = [await newUser(root, consoleUrl, 'banned'), await newUser(root, consoleUrl, 'spender')];
  let deletable = 0;
  return [
    {
      name: 'token disabled, then enabled',
      steps: [
        { write: () => root.put('/api/token/?status_only=true', { id: rootKey.id, status: 2 }), call: relayTo(rootKey.key), expected: '401 token_unavailable' },
        { write: () => root.put('/api/token/?status_only=true', { id: rootKey.id, status: 1 }), call: relayTo(rootKey.key), expected: '200' },
      ],
    },
    {
      name: 'user disabled, then enabled',
      steps: [
        { write: () => root.post('/api/user/manage', { id: banned.id, action: 'disable' }), call: relayTo(banned.key), expected: '403 user_banned' },
        { write: () => root.post('/api/user/manage', { id: banned.id, action: 'enable' }), call: relayTo(banned.key), expected: '200' },
      ],
    },
    {
      name: 'channel created, then deleted',
      steps: [
        {
          write: async () => {
            const created = await channel('in-force-deletable', 'gpt-4o');
            deletable = created.data[0] ?? 0;
            return created;
          },
          call: relayTo(rootKey.key, 'gpt-4o'),
          expected: '200',
        },
        { write: () => root.delete(`/api/channel/${deletable}`), call: relayTo(rootKey.key, 'gpt-4o'), expected: '503 model_not_found' },
      ],
    },
    {
      name: "user's quota to 0, then raised",
      steps: [
        { write: () => root.put('/api/user/', { id: spender.id, quota: 0 }), call: relayTo(spender.key), expected: '403 insufficient_user_quota' },
        { write: () => root.put('/api/user/', { id: spender.id, quota: 1_000_000_000 }), call: relayTo(spender.key), expected: '200' },
      ],
    },
    {
      name: 'an option that refuses a model',
      steps: [
        {
          write: () => root.put('/api/option/', { key: 'SelfUseModeEnabled', value: 'false' }),
          call: relayTo(rootKey.key, unpricedModel),
          expected: '400 model_price_error',
        },
        { write: () => root.put('/api/option/', { key: 'SelfUseModeEnabled', value: 'true' }), call: relayTo(rootKey.key, unpricedModel), expected: '200' },
      ],
    },
  ];
}

async function newToken(session: RootSession, name: string): Promise<{ id: number; key: string }> {
  const created = await session.post<{ success: boolean; message: string; data: Array<{ id: number; key: string }> }>('/api/token/', {
    name,
    remain_quota: 0,
    unlimited_quota: true,
    expired_time: -1,
  });
  const token = created.data?.[0];
  if (!created.success || !token) throw new Error(`token not created: ${created.message}`);
  return token;
}

/** A user with a large balance and a token of its own. */
async function newUser(root: RootSession, baseUrl: string, username: string): Promise<{ id: number; key: string }> {
  const password = `${username}-password`;
  const created = await root.post('/api/user/', { username, password, display_name: username });
  if (!created.success) throw new Error(`user not created: ${created.message}`);
  const session = await loginAs(baseUrl, username, password);
  const funded = await root.put('/api/user/', { id: session.id, quota: 1_000_000_000 });
  if (!funded.success) throw new Error(`user not funded: ${funded.message}`);
  return { id: session.id, key: (await newToken(session, `${username}-token`)).key };
}
