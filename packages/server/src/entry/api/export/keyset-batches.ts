/** Lets timers, sockets and other requests run: on SQLite a read never leaves the event loop by itself. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Reads a table batch by batch along a key (keyset pagination): each batch starts after the last row
 * of the one before, so every batch is one index range however deep the export is, unlike OFFSET,
 * which rereads every row before the page. Between batches the event loop turns, so a long export
 * never holds up the relay.
 */
export async function* keysetBatches<Row, Cursor>(
  read: (after: Cursor | undefined, limit: number) => Promise<Row[]>,
  cursorOf: (row: Row) => Cursor,
  batchSize: number,
): AsyncGenerator<Row[]> {
  let after: Cursor | undefined;
  for (;;) {
    const rows = await read(after, batchSize);
    if (rows.length > 0) yield rows;
    const last = rows[rows.length - 1];
    if (rows.length < batchSize || last === undefined) return;
    after = cursorOf(last);
    await yieldToEventLoop();
  }
}
