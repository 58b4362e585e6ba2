/** Percentile of an ascending-sorted array (nearest rank); NaN when empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export function sortedCopy(values: readonly number[]): Float64Array {
  return Float64Array.from(values).sort();
}

export interface Spread {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  const sorted = sortedCopy(values);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
  };
}

/** Least-squares slope of y over x (units of y per unit of x); 0 with fewer than two points. */
export function slope(points: ReadonlyArray<{ x: number; y: number }>): number {
  const n = points.length;
  if (n < 2) return 0;
  const meanX = points.reduce((sum, point) => sum + point.x, 0) / n;
  const meanY = points.reduce((sum, point) => sum + point.y, 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (const point of points) {
    numerator += (point.x - meanX) * (point.y - meanY);
    denominator += (point.x - meanX) ** 2;
  }
  return denominator === 0 ? 0 : numerator / denominator;
}

export const round = (value: number, digits = 2): number => (Number.isFinite(value) ? Number(value.toFixed(digits)) : value);

/** The item whose `value` is the median (the lower middle one for an even count); undefined when none has a finite value. */
export function medianBy<T>(items: readonly T[], value: (item: T) => number | undefined): T | undefined {
  const sorted = items.filter((item) => Number.isFinite(value(item))).sort((a, b) => (value(a) ?? 0) - (value(b) ?? 0));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}
