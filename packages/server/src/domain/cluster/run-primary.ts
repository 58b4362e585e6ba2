import cluster, { type Worker } from 'node:cluster';
import type { Config } from '../../core/config/config.ts';
import { servingAddress, type BoundAddress as Address } from '../../core/http/serving-address.ts';
import type { Logger } from '../../core/platform/logger.ts';
import { compactStartupGarbage } from '../../core/platform/memory-return.ts';
import { servePrimary } from './primary-services.ts';
import { watchWorkerChannel } from './process-channel.ts';

/** A worker that dies this many times within the window is not restarted again: the machine is stopped. */
const crashLoop = { restarts: 5, windowMs: 60_000 };

/**
 * WORKERS > 1: this process only supervises. It starts one worker, which migrates the database and
 * creates the root user alone, then the others once the first listens (they share its port through
 * the cluster module). A worker that dies is replaced; SIGTERM or SIGINT stops all of them
 * gracefully, and this process exits when the last one has.
 */
export async function runPrimary(config: Config, logger: Logger): Promise<void> {
  // Structured cloning, not JSON: a worker's batch of log rows travels as a long JSON text, which the
  // JSON channel escaped and unescaped again at both ends (3.5 times the CPU per message, measured).
  cluster.setupPrimary({ serialization: 'advanced' });
  const { writers, spend } = servePrimary(logger);
  /** The last worker has stopped: no batch is in flight, so the writers close cleanly before the exit. */
  const exitAfterWriters = (code: number) => {
    spend.close();
    void writers.close().finally(() => process.exit(code));
  };
  // Every worker must sign and read the same session cookies and cache keys, and tell the same start time.
  // A worker limits requests to its share (limit ÷ workers) when this process does not answer.
  const workerEnv: Record<string, string> = {
    WORKERS: '1',
    SWITCHBOARD_MACHINE_WORKERS: String(config.workers),
    SWITCHBOARD_STARTED_AT: String(config.startedAt),
  };
  if (config.sessionSecretGenerated) workerEnv.SESSION_SECRET = config.sessionSecret;

  let started = false; // every worker of the start-up listens
  let stopping = false;
  let exitCode = 0;
  const recentRestarts: number[] = [];
  // Our own count: cluster.workers drops a worker only once it has both exited and disconnected.
  const live = new Set<Worker>();
  const served = new WeakSet<Worker>();

  const fork = (): Worker => {
    const worker = cluster.fork(workerEnv);
    watchWorkerChannel(worker, logger);
    live.add(worker);
    worker.once('listening', () => served.add(worker));
    worker.once('exit', () => live.delete(worker));
    return worker;
  };
  let bound: Address | undefined;
  const listening = (worker: Worker) =>
    new Promise<number | undefined>((resolve) => {
      worker.once('listening', (address: Address) => {
        bound ??= address;
        resolve(undefined);
      });
      worker.once('exit', (code) => resolve(code ?? 1));
    });

  const stop = (code: number): void => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    // Each worker finishes its requests and pending writes (its own graceful shutdown), then exits.
    for (const worker of live) worker.process.kill('SIGTERM');
    const deadline = setTimeout(
      () => {
        logger.error('workers took too long to stop; killing them');
        for (const worker of live) worker.process.kill('SIGKILL');
        process.exit(1);
      },
      (config.shutdownTimeoutSeconds + 5) * 1000,
    );
    deadline.unref();
    if (live.size === 0) exitAfterWriters(exitCode);
  };

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      logger.info({ signal }, 'shutting down: every worker finishes its in-flight requests and pending writes');
      stop(0);
    });
  }

  cluster.on('exit', (worker, code, signal) => {
    spend.workerGone(worker);
    if (stopping) {
      // A worker still starting has no handler yet and ends by the signal itself: it served nothing.
      if (code !== 0 && signal !== 'SIGTERM') exitCode = 1;
      if (live.size === 0) exitAfterWriters(exitCode);
      return;
    }
    // A worker that never served failed to start: handled where the workers are started.
    if (!started && !served.has(worker)) return;
    const now = Date.now();
    recentRestarts.push(now);
    while (recentRestarts.length > 0 && recentRestarts[0]! < now - crashLoop.windowMs) recentRestarts.shift();
    if (recentRestarts.length > crashLoop.restarts) {
      logger.error({ pid: worker.process.pid, code, signal }, 'a worker keeps dying; stopping Switchboard');
      stop(1);
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'a worker process died; starting another');
    const replacement = fork();
    replacement.once('listening', () => logger.info({ pid: replacement.process.pid }, 'the replacement worker process is serving'));
  });

  // The first worker alone migrates and creates the root user; if it cannot start, it has printed why
  // (one line, secrets hidden) and the others would fail alike.
  const firstFailure = await listening(fork());
  if (firstFailure !== undefined) return stop(firstFailure || 1);
  const failures = await Promise.all(Array.from({ length: config.workers - 1 }, () => (stopping ? undefined : listening(fork()))));
  const failure = failures.find((code) => code !== undefined);
  if (failure !== undefined) return stop(failure || 1);
  if (stopping) return;
  started = true;
  const address = servingAddress(bound ?? { address: config.host, port: config.port });
  logger.info({ workers: config.workers }, `Switchboard is serving on ${address} with ${config.workers} worker processes`);
  compactStartupGarbage();
  if (config.sessionSecretGenerated) {
    logger.warn('SESSION_SECRET is not set: a random one is used, so logins end at restart and are not shared between instances');
  }
}
