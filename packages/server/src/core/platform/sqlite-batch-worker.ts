import { Worker } from 'node:worker_threads';

// From source the thread is the .ts file beside this one; inside the prebuilt bundle (dist/*.mjs) it is the .mjs entry.
const threadUrl = new URL(import.meta.url.endsWith('.ts') ? './sqlite-batch-worker.thread.ts' : './sqlite-batch-worker.thread.mjs', import.meta.url);

/** One SQL text with `?` placeholders, run once per row of parameters. */
export interface BatchStatement {
  readonly sql: string;
  readonly rows: ReadonlyArray<ReadonlyArray<string | number | null>>;
}

/** `statements` travels as JSON text: structured cloning of many small arrays cost several times more. */
export type WorkerRequest = { kind: 'run'; id: number; statements: string } | { kind: 'close'; id: number };
export type WorkerReply = { id: number; error?: string };

/**
 * Where a process's batched SQLite writes go: its own writer thread, or (a cluster worker) the
 * primary's one writer for the machine (cluster/primary-batch-writer.ts).
 */
export interface BatchWriter {
  /** Runs the statements in one transaction; resolves once it is committed. */
  run(statements: readonly BatchStatement[]): Promise<void>;
  /** `run` for statements already in their JSON text (a writer that builds its batch as text, as the log writer does). */
  runText(statements: string): Promise<void>;
  close(): Promise<void>;
}

/** The writer thread's name, as the operating system lists it (`/proc/<pid>/task/<tid>/comm`). */
export const writerThreadName = 'sqlite-writer';

interface Waiting {
  resolve(): void;
  reject(error: Error): void;
}

/**
 * Writes batches to a SQLite file from a worker thread with its own connection. better-sqlite3 runs
 * every statement synchronously, so the relay's batched log rows and quota updates written on the
 * main thread held the event loop for milliseconds at a time, and for ten or more when a WAL
 * checkpoint landed in the batch. Here the main thread only posts the rows; each batch is one
 * transaction (written whole or not at all), and the answer says when it is committed.
 */
export class SqliteBatchWorker implements BatchWriter {
  private readonly path: string;
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  constructor(path: string) {
    this.path = path;
  }

  /** Runs the statements in one transaction; resolves once it is committed. */
  run(statements: readonly BatchStatement[]): Promise<void> {
    if (statements.every((statement) => statement.rows.length === 0)) return Promise.resolve();
    return this.runText(JSON.stringify(statements));
  }

  /** `run` for statements already in their JSON text (the log writer's, or a cluster worker's batch passed on as it came). */
  runText(statements: string): Promise<void> {
    return this.send((id) => ({ kind: 'run', id, statements }));
  }

  /** Closes the worker's connection and ends the thread; a later `run` starts a new one. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await this.send((id) => ({ kind: 'close', id })).catch(() => undefined);
    this.worker = undefined;
    await worker.terminate();
  }

  private send(request: (id: number) => WorkerRequest): Promise<void> {
    const worker = this.started();
    const id = this.nextId++;
    // Referenced while a batch is in flight, so a stopping process waits for its commit; idle, it holds nothing open.
    if (this.waiting.size === 0) worker.ref();
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage(request(id));
    });
  }

  /** The thread starts on the first batch: an idle or read-only instance never pays for it. */
  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(threadUrl, { workerData: { path: this.path }, name: writerThreadName });
    worker.on('message', (reply: WorkerReply) => {
      const waiting = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if (reply.error === undefined) waiting?.resolve();
      else waiting?.reject(new Error(reply.error));
    });
    const failAll = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiting of this.waiting.values()) waiting.reject(error);
      this.waiting.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`SQLite batch writer stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
