import type { BatchStatement, BatchWriter } from '../../core/platform/sqlite-batch-worker.ts';
import type { PrimaryLink } from './primary-link.ts';

/**
 * A cluster worker's batched SQLite writes (relay logs, quota), committed by the primary's one writer
 * thread for the file instead of a thread of its own: with a writer per worker, each waited out the
 * others' commits on the WAL lock, and a console write on a worker's main thread could wait behind
 * two of them. The answer comes once the batch is committed; there is no timeout (a write that timed
 * out here might still commit there, and its retry would write it twice).
 */
export class PrimaryBatchWriter implements BatchWriter {
  private readonly link: PrimaryLink;
  private readonly path: string;

  constructor(link: PrimaryLink, path: string) {
    this.link = link;
    this.path = path;
  }

  async run(statements: readonly BatchStatement[]): Promise<void> {
    if (statements.every((statement) => statement.rows.length === 0)) return;
    await this.runText(JSON.stringify(statements));
  }

  async runText(statements: string): Promise<void> {
    await this.link.request((id) => ({ sb: 'batch', id, path: this.path, statements }), Number.POSITIVE_INFINITY);
  }

  /** The writer is the primary's, which closes it when the last worker has stopped. */
  async close(): Promise<void> {}
}
