/** The page sizes the spec offers on every list. */
export const pageSizeOptions = [10, 20, 50, 100];

/** The page size stored under `storageKey` when it is one the lists offer, else `fallback`. */
export function readPageSize(storageKey: string | undefined, fallback: number): number {
  if (!storageKey) return fallback;
  const stored = Number(localStorage.getItem(storageKey));
  return pageSizeOptions.includes(stored) ? stored : fallback;
}

/** Remembers the page size chosen on a list for the next visit. */
export function rememberPageSize(storageKey: string | undefined, size: number): void {
  if (storageKey) localStorage.setItem(storageKey, String(size));
}
