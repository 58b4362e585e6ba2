/** Ids per query of a periodic reload: well under every engine's limit on bound parameters. */
export const reloadBatchSize = 500;

/** `ids` cut into consecutive slices of at most `size`. */
export function idBatches(ids: readonly number[], size = reloadBatchSize): number[][] {
  const batches: number[][] = [];
  for (let start = 0; start < ids.length; start += size) batches.push(ids.slice(start, start + size));
  return batches;
}
