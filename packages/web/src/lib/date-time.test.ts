import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { formatUnixTime } from './date-time.ts';

describe('formatUnixTime', () => {
  // Built from local wall-clock times, so the expectations hold in any time zone.
  const seconds = dayjs('2026-03-02T08:05:09').unix();

  it('shows Unix seconds as local time to the second', () => {
    expect(formatUnixTime(seconds)).toBe('2026-03-02 08:05:09');
  });

  it('reads milliseconds when told, as the drawing proxy reports them', () => {
    expect(formatUnixTime(seconds * 1000 + 999, 'milliseconds')).toBe('2026-03-02 08:05:09');
  });

  it("shows '-' for 0, the time of something that has not happened", () => {
    expect(formatUnixTime(0)).toBe('-');
    expect(formatUnixTime(0, 'milliseconds')).toBe('-');
  });
});
