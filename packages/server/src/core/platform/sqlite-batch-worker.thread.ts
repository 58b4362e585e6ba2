/**
 * The SQLite batch writer's thread (see sqlite-batch-worker.ts): its own connection to the database
 * file, one transaction per batch, each distinct statement prepared once and reused.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { safeParseJson } from './safe-json.ts';
import type { BatchStatement, WorkerReply, WorkerRequest } from './sqlite-batch-worker.ts';

const port = parentPort;
if (!port) throw new Error('sqlite-batch-worker.thread.ts runs only as a worker thread');

const database = new Database((workerData as { path: string }).path);
database.pragma('journal_mode = WAL');
database.pragma('busy_timeout = 30000');
database.pragma('synchronous = NORMAL');

// The writers send a handful of fixed statements; the bound only guards against a caller that doesn't.
const maxPrepared = 64;
const prepared = new Map<string, Database.Statement>();
function statementFor(text: string): Database.Statement {
  let statement = prepared.get(text);
  if (!statement) {
    if (prepared.size >= maxPrepared) prepared.clear();
    statement = database.prepare(text);
    prepared.set(text, statement);
  }
  return statement;
}

const runBatch = database.transaction((statements: readonly BatchStatement[]) => {
  for (const { sql, rows } of statements) {
    const statement = statementFor(sql);
    for (const row of rows) statement.run(row);
  }
});

port.on('message', (request: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    if (request.kind === 'run') {
      const statements = safeParseJson(request.statements);
      if (!statements.ok) throw new Error(`unreadable batch: ${statements.error}`);
      // IMMEDIATE, as every transaction here (core/platform/database.ts): the write lock first, waited for.
      runBatch.immediate(statements.value as BatchStatement[]);
    } else database.close();
    reply = { id: request.id };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
