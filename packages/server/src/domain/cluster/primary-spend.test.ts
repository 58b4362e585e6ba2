import type { Worker } from 'node:cluster';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RelayError } from '../../core/http/relay-error.ts';
import { SpendGuard, type ClaimOutcome } from '../billing/spend-guard.ts';
import type { LeaseGrant, LeaseRequest } from '../billing/spend-lease-book.ts';
import type { SpendMessage, WorkerMessage } from './cluster-messages.ts';
import { PrimaryLink, type PrimaryChannel } from './primary-link.ts';
import { createPrimarySpendCoordinator } from './primary-spend-coordinator.ts';
import { PrimarySpendBook, departedWaitMs } from './primary-spend.ts';

const worker = (id: number) => ({ id, isConnected: () => true }) as unknown as Worker;
const request = (worst: number, seed = 1_000_000): LeaseRequest => ({ seed, worst, expected: worst, carried: 0, generation: 0 });
const acquire = (key: string, leaseRequest: LeaseRequest): SpendMessage => ({ sb: 'spend', id: 1, op: 'acquire', key, request: leaseRequest });

/** Asks the book for a lease and answers what it granted, or undefined while the answer waits. */
function ask(book: PrimarySpendBook, from: Worker, message: SpendMessage): { answer: LeaseGrant | undefined } {
  const asked: { answer: LeaseGrant | undefined } = { answer: undefined };
  book.handle(from, message, (grant) => (asked.answer = grant));
  return asked;
}

describe("the primary's spending book after a worker died holding a slice", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Worker 1 holds a slice of a 1,000,000 balance, then dies: its lease waits for its journal. */
  function bookWithDepartedSlice(): PrimarySpendBook {
    const book = new PrimarySpendBook();
    book.handle(worker(1), { sb: 'spend', id: 0, op: 'journal', journal: 'journal-1' }, () => undefined);
    const slice = ask(book, worker(1), acquire('user:7', request(1_000)));
    expect(slice.answer?.granted).toBeGreaterThan(100_000);
    book.workerGone(worker(1));
    return book;
  }

  it('answers a request near the edge once the replayed journal has given the unspent slice back, not before', () => {
    const book = bookWithDepartedSlice();
    // More than the room left beside the dead worker's lease, less than the balance minus what it spent.
    const nearEdge = ask(book, worker(2), acquire('user:7', request(950_000)));
    expect(nearEdge.answer).toBeUndefined();

    const replayed: SpendMessage = { sb: 'spend', id: 0, op: 'replayed', journal: 'journal-1', charges: [{ seq: 3, keys: ['user:7'], quota: 2_010 }] };
    book.handle(worker(3), replayed, () => undefined);
    expect(nearEdge.answer?.granted).toBe(950_000);
    book.close();
  });

  it('answers far from the edge at once, and decides a waiting request after the wait even if no journal is replayed', () => {
    vi.useFakeTimers();
    const book = bookWithDepartedSlice();
    expect(ask(book, worker(2), acquire('user:7', request(1_000))).answer?.granted).toBeGreaterThan(0);

    const nearEdge = ask(book, worker(2), acquire('user:7', request(950_000)));
    vi.advanceTimersByTime(departedWaitMs - 1);
    expect(nearEdge.answer).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(nearEdge.answer?.granted).toBe(-1);
    book.close();
  });
});

/** A stand-in primary that answers only when the test says so (a busy primary, or one paused by SIGSTOP). */
function latePrimary(): PrimaryChannel & { sent: WorkerMessage[]; answer(id: number, result: unknown): void; disconnect(): void } {
  const sent: WorkerMessage[] = [];
  let listener: (message: unknown) => void = () => undefined;
  let gone: () => void = () => undefined;
  let connected = true;
  return {
    sent,
    connected: () => connected,
    send: (message) => void sent.push(message),
    onMessage: (received) => void (listener = received),
    onDisconnect: (received) => void (gone = received),
    answer: (id, result) => listener({ sb: 'reply', id, result }),
    disconnect: () => {
      connected = false;
      gone();
    },
  };
}

/** Claims `worst` on one token balance through a guard whose book is the (stand-in) primary's. */
function claimThroughPrimary(primary: PrimaryChannel): { outcome: Promise<ClaimOutcome>; state: () => 'waiting' | 'answered' | 'failed' } {
  const guard = new SpendGuard(createPrimarySpendCoordinator(new PrimaryLink(primary)));
  const outcome = Promise.resolve(guard.claim([{ key: 't:1', seed: 1_000_000 }], 1_000, 1_000));
  let state: 'waiting' | 'answered' | 'failed' = 'waiting';
  outcome.then(
    () => (state = 'answered'),
    () => (state = 'failed'),
  );
  return { outcome, state: () => state };
}

describe("a worker's spending guard whose primary answers late", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for the lease however late a busy primary grants it, and admits the paying call then', async () => {
    vi.useFakeTimers();
    const primary = latePrimary();
    const claim = claimThroughPrimary(primary);
    expect(primary.sent).toMatchObject([{ sb: 'spend', op: 'acquire', key: 't:1' }]);
    // Longer than the link's usual bound (5 s): the call used to fail with "the primary process did not answer".
    await vi.advanceTimersByTimeAsync(6_000);
    expect(claim.state()).toBe('waiting');
    primary.answer((primary.sent[0] as { id: number }).id, { granted: 32_000, generation: 1 } satisfies LeaseGrant);
    await expect(claim.outcome).resolves.toEqual({ ok: true, claims: [{ key: 't:1', amount: 1_000 }] });
  });

  it('tells the caller to retry (503, Retry-After) when the primary is gone while it waits', async () => {
    const primary = latePrimary();
    const claim = claimThroughPrimary(primary);
    primary.disconnect();
    const refusal = await claim.outcome.catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RelayError);
    expect(refusal).toMatchObject({ status: 503, code: 'primary_unavailable', retryAfterSeconds: 1 });
  });
});
