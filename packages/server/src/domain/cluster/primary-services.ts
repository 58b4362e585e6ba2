import type { Worker } from 'node:cluster';
import cluster from 'node:cluster';
import { systemClock } from '../../core/platform/clock.ts';
import { createMemoryExpiringStore, type ExpiringStore } from '../../core/platform/expiring-store.ts';
import type { Logger } from '../../core/platform/logger.ts';
import { isSwitchboardMessage, type Reply, type StoreRequest, type WorkerMessage } from './cluster-messages.ts';
import { serveChangeRelay } from './primary-change-relay.ts';
import { PrimaryBusyBoard } from './primary-busy.ts';
import { PrimaryLimits } from './primary-limit-store.ts';
import { PrimarySpendBook } from './primary-spend.ts';
import { PrimarySqliteWriters } from './primary-sqlite-writers.ts';

/**
 * What the primary process does for its workers: repeats every change to all of them (answering the
 * sender once they have applied it, see primary-change-relay.ts), keeps the machine's one short-lived
 * value store, adds up their metrics for a scrape, commits their batched SQLite writes in one writer
 * per file, keeps the machine's spending guard book, counts its request limits and adds up the
 * workers' requests in flight per channel (least-busy routing). It loads no part of
 * the gateway; its only database connections are those writers' (SQLite only, opened with the first
 * batch).
 */
export function servePrimary(logger: Logger): PrimaryServices {
  serveChangeRelay(logger);
  const store = createMemoryExpiringStore(systemClock);
  const writers = new PrimarySqliteWriters();
  const spend = new PrimarySpendBook();
  const limits = new PrimaryLimits();
  const busy = new PrimaryBusyBoard();
  let aggregator: Promise<{ clusterMetrics(): Promise<string> }> | undefined;
  const handle = (worker: Worker, request: WorkerMessage): void => {
    if (request.sb === 'bundle') {
      // A worker's fire-and-forget messages of one turn, in the order it made them.
      for (const bundled of request.messages) handle(worker, bundled);
    } else if (request.sb === 'store') {
      void answer(worker, request.id, () => runStoreOperation(store, request));
    } else if (request.sb === 'metrics') {
      // prom-client is loaded only when a scrape comes (metrics are on): the primary stays small otherwise.
      aggregator ??= import('prom-client').then((client) => new client.AggregatorRegistry());
      void answer(worker, request.id, async () => (await aggregator!).clusterMetrics());
    } else if (request.sb === 'batch') {
      void answer(worker, request.id, () => writers.run(request.path, request.statements));
    } else if (request.sb === 'spend') {
      spend.handle(worker, request, (grant) => {
        if (worker.isConnected()) worker.send({ sb: 'reply', id: request.id, result: grant } satisfies Reply);
      });
    } else if (request.sb === 'limit') {
      const admission = limits.handle(request);
      if (admission && worker.isConnected()) worker.send({ sb: 'reply', id: request.id, result: admission } satisfies Reply);
    } else if (request.sb === 'busy') {
      const others = busy.report(worker.id, request.counts, request.now);
      if (worker.isConnected()) worker.send({ sb: 'reply', id: request.id, result: others } satisfies Reply);
    }
  };
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (isSwitchboardMessage(message)) handle(worker, message as WorkerMessage);
  });
  return { writers, spend };
}

export interface PrimaryServices {
  /** Closed once the last worker has stopped. */
  readonly writers: PrimarySqliteWriters;
  /** Told when a worker exits: its leases on balances stay out of the room until its journal is replayed (see PrimarySpendBook). */
  readonly spend: PrimarySpendBook;
}

async function answer(worker: Worker, id: number, work: () => Promise<unknown>): Promise<void> {
  let reply: Reply;
  try {
    reply = { sb: 'reply', id, result: await work() };
  } catch (error) {
    reply = { sb: 'reply', id, error: error instanceof Error ? error.message : String(error) };
  }
  if (worker.isConnected()) worker.send(reply);
}

function runStoreOperation(store: ExpiringStore, { op, args }: StoreRequest): Promise<unknown> {
  const [key, second, third] = args as [string, string | number, number];
  switch (op) {
    case 'get':
      return store.get(key);
    case 'set':
      return store.set(key, String(second), third);
    case 'setIfAbsent':
      return store.setIfAbsent(key, String(second), third);
    case 'take':
      return store.take(key);
    case 'delete':
      return store.delete(key);
    case 'increment':
      return store.increment(key, Number(second));
    case 'decrement':
      return store.decrement(key);
  }
}
