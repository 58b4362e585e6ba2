import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { stackBy, totalsBy } from './aggregate.ts';

const hour = (day: number, hourOfDay: number) => dayjs('2026-03-02T00:00:00').add(day, 'day').add(hourOfDay, 'hour').unix();
const rows = [
  { user_id: 1, model_name: 'a', username: 'u1', created_at: hour(0, 1), token_used: 10, count: 1, quota: 100 },
  { user_id: 2, model_name: 'b', username: 'u2', created_at: hour(0, 1), token_used: 10, count: 4, quota: 50 },
  { user_id: 1, model_name: 'a', username: 'u1', created_at: hour(1, 5), token_used: 10, count: 2, quota: 25 },
];

describe('stackBy', () => {
  it('sums per bucket and key in time order', () => {
    const byDay = stackBy(
      rows,
      'day',
      (row) => row.model_name,
      (row) => row.quota,
    );
    expect(byDay.buckets).toEqual(['2026-03-02', '2026-03-03']);
    expect(byDay.series).toEqual([
      { name: 'a', values: [100, 25] },
      { name: 'b', values: [50, 0] },
    ]);
  });

  it('puts a whole week (from Monday) in one bucket', () => {
    expect(
      stackBy(
        rows,
        'week',
        (row) => row.model_name,
        (row) => row.quota,
      ).buckets,
    ).toEqual(['2026-03-02']);
  });
});

describe('totalsBy', () => {
  it('totals per key, largest first', () => {
    expect(
      totalsBy(
        rows,
        (row) => row.model_name,
        (row) => row.count,
      ),
    ).toEqual([
      { name: 'b', value: 4 },
      { name: 'a', value: 3 },
    ]);
  });
});
