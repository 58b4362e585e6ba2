/** Rereads while a roll-up moved between reading its watermark and its rows (it moves once a minute at most). */
const attempts = 5;

/**
 * Reads a roll-up's rows together with the watermark they stop at. The roll-up moves its cursor and
 * adds its sums in one transaction, so when the watermark reads the same before and after the rows,
 * the rows count exactly the logs up to it: the logs after it are then added once, never twice.
 */
export async function readRollUpAt<Rows>(readWatermark: () => Promise<number>, readRows: () => Promise<Rows>): Promise<{ watermark: number; rows: Rows }> {
  for (let attempt = 1; ; attempt += 1) {
    const watermark = await readWatermark();
    const rows = await readRows();
    if ((await readWatermark()) === watermark || attempt === attempts) return { watermark, rows };
  }
}
