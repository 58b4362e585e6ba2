import dayjs from 'dayjs';
import type { QuotaDataRow } from '@switchboard/contracts';

export type Granularity = 'hour' | 'day' | 'week';

export interface Series {
  name: string;
  values: number[];
}

export interface StackedData {
  buckets: string[];
  series: Series[];
}

function bucketOf(seconds: number, granularity: Granularity): string {
  const time = dayjs.unix(seconds);
  if (granularity === 'hour') return time.format('MM-DD HH:00');
  if (granularity === 'day') return time.format('YYYY-MM-DD');
  // Weeks start on Monday.
  return time.subtract((time.day() + 6) % 7, 'day').format('YYYY-MM-DD');
}

/** Sums `value` per time bucket and per `key` (model or user), buckets in time order. */
export function stackBy(rows: QuotaDataRow[], granularity: Granularity, key: (row: QuotaDataRow) => string, value: (row: QuotaDataRow) => number): StackedData {
  const sorted = [...rows].sort((left, right) => left.created_at - right.created_at);
  const buckets: string[] = [];
  const index = new Map<string, number>();
  for (const row of sorted) {
    const bucket = bucketOf(row.created_at, granularity);
    if (!index.has(bucket)) {
      index.set(bucket, buckets.length);
      buckets.push(bucket);
    }
  }
  const byKey = new Map<string, number[]>();
  for (const row of sorted) {
    const name = key(row) || '-';
    const values = byKey.get(name) ?? new Array<number>(buckets.length).fill(0);
    const position = index.get(bucketOf(row.created_at, granularity)) ?? 0;
    values[position] = (values[position] ?? 0) + value(row);
    byKey.set(name, values);
  }
  return { buckets, series: [...byKey.entries()].map(([name, values]) => ({ name, values })) };
}

/** Totals per key, largest first. */
export function totalsBy(
  rows: QuotaDataRow[],
  key: (row: QuotaDataRow) => string,
  value: (row: QuotaDataRow) => number,
): Array<{ name: string; value: number }> {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(key(row) || '-', (totals.get(key(row) || '-') ?? 0) + value(row));
  return [...totals.entries()].map(([name, total]) => ({ name, value: total })).sort((left, right) => right.value - left.value);
}
