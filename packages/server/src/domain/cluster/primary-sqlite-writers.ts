import { SqliteBatchWorker } from '../../core/platform/sqlite-batch-worker.ts';

/**
 * The machine's SQLite writers, one per database file (the main one and a separate log database),
 * kept by the primary for its workers. Each writer's thread starts with its first batch.
 */
export class PrimarySqliteWriters {
  private readonly writers = new Map<string, SqliteBatchWorker>();

  /** Commits one worker's batch (statements as JSON text) in the file's writer. */
  run(path: string, statements: string): Promise<void> {
    let writer = this.writers.get(path);
    if (!writer) {
      writer = new SqliteBatchWorker(path);
      this.writers.set(path, writer);
    }
    return writer.runText(statements);
  }

  /** Closes every writer's connection (the workers have stopped, so none has a batch in flight). */
  async close(): Promise<void> {
    await Promise.all([...this.writers.values()].map((writer) => writer.close()));
    this.writers.clear();
  }
}
