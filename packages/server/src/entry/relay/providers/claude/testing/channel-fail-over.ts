import type OpenAI from 'openai';
import { expect } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { openaiClient, type ledgerState } from '../../../testing/relay-seed.ts';
import type { NativeRelay } from './native-relay.ts';

/** Two channels of one vendor serving `model`: one whose calls fail (`failingKey`), ranked above a backup. */
export interface FailOverSeed {
  type: number;
  baseUrl: string;
  model: string;
  failingKey: string;
  backupKey: string;
  /** The failing channel's priority and the backup's: above earlier tests' channels of the model. */
  priorities?: readonly [number, number];
  /** The vendor's own channel field (an API version, an account id). */
  other?: string;
}

export interface FailOverRun<T> {
  answer: T;
  failing: number;
  backup: number;
  /** The token's charges and the two channels. */
  state(): ReturnType<typeof ledgerState>;
}

/** The call most failover cases make: one chat message. */
export const sayHi = (client: OpenAI, model: string) => client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] });

/** Seeds the two channels and a fresh token, then makes `call` once with the openai client. */
export async function callPastFailingChannel<T>(
  relay: NativeRelay,
  seed: FailOverSeed,
  call: (client: OpenAI, model: string) => Promise<T>,
): Promise<FailOverRun<T>> {
  const [failingPriority, backupPriority] = seed.priorities ?? [10, 0];
  const common = { type: seed.type, baseUrl: seed.baseUrl, models: [seed.model], ...(seed.other ? { other: seed.other } : {}) };
  const failing = await relay.channel({ ...common, key: seed.failingKey, priority: failingPriority });
  const backup = await relay.channel({ ...common, key: seed.backupKey, priority: backupPriority });
  const token = await relay.token();
  const answer = await call(openaiClient(relay.baseUrl, token.apiKey), seed.model);
  return { answer, failing, backup, state: () => token.state([failing, backup]) };
}

/**
 * The backup served and was charged (its log row matching `log`); the failing channel was disabled
 * (its key is dead: new-api's auto-disable, written in the background) or kept (it was only busy).
 */
export async function expectServedByBackup(
  relay: NativeRelay,
  run: FailOverRun<unknown>,
  failing: 'disabled' | 'kept',
  log: Record<string, unknown> = {},
): Promise<void> {
  if (failing === 'disabled') await relay.waitForStatus(run.failing, ChannelStatus.autoDisabled);
  const state = await run.state();
  if (failing === 'kept') expect(state.channels.find((channel) => channel.id === run.failing)?.status).toBe(ChannelStatus.enabled);
  expect(state.logs[0]).toMatchObject({ channel_id: run.backup, ...log });
}
