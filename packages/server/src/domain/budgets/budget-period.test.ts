import { describe, expect, it } from 'vitest';
import { PeriodCalendar, periodWindow } from './budget-period.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('budget periods', () => {
  it('start days at local midnight of the server time zone', () => {
    // 23:30 on March 10th in Shanghai (UTC+8).
    const window = periodWindow('day', at('2026-03-10T15:30:00Z'), 'Asia/Shanghai');
    expect([iso(window.start), iso(window.end)]).toEqual(['2026-03-09T16:00:00.000Z', '2026-03-10T16:00:00.000Z']);
    // 23:59:59 local is still the same day, midnight local is the next one.
    const beforeMidnight = periodWindow('day', at('2026-03-11T15:59:59Z'), 'Asia/Shanghai');
    const afterMidnight = periodWindow('day', at('2026-03-11T16:00:00Z'), 'Asia/Shanghai');
    expect(beforeMidnight.end).toBe(afterMidnight.start);
    expect(iso(afterMidnight.start)).toBe('2026-03-11T16:00:00.000Z');
  });

  it('start weeks on Monday and months on the 1st', () => {
    // Sunday 2026-03-15 in UTC: its week began Monday the 9th.
    const week = periodWindow('week', at('2026-03-15T23:00:00Z'), 'UTC');
    expect([iso(week.start), iso(week.end)]).toEqual(['2026-03-09T00:00:00.000Z', '2026-03-16T00:00:00.000Z']);
    const monday = periodWindow('week', at('2026-03-16T00:00:00Z'), 'UTC');
    expect(iso(monday.start)).toBe('2026-03-16T00:00:00.000Z');
    const december = periodWindow('month', at('2026-12-31T12:00:00Z'), 'UTC');
    expect([iso(december.start), iso(december.end)]).toEqual(['2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
  });

  it('follow daylight saving time: a day can be 23 or 25 hours long', () => {
    // Berlin springs forward on 2026-03-29 (02:00 → 03:00) and falls back on 2026-10-25.
    const spring = periodWindow('day', at('2026-03-29T12:00:00Z'), 'Europe/Berlin');
    expect([iso(spring.start), iso(spring.end)]).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    expect(spring.end - spring.start).toBe(23 * 3_600_000);
    const autumn = periodWindow('day', at('2026-10-25T12:00:00Z'), 'Europe/Berlin');
    expect(autumn.end - autumn.start).toBe(25 * 3_600_000);
    // The March month in New York spans the DST change and still starts and ends at local midnight.
    const month = periodWindow('month', at('2026-03-20T12:00:00Z'), 'America/New_York');
    expect([iso(month.start), iso(month.end)]).toEqual(['2026-03-01T05:00:00.000Z', '2026-04-01T04:00:00.000Z']);
  });

  it('start a day whose midnight does not exist at the end of the gap', () => {
    // Santiago skips 2026-09-06 00:00 → 01:00 (clocks go forward at midnight).
    const window = periodWindow('day', at('2026-09-06T15:00:00Z'), 'America/Santiago');
    expect(iso(window.start)).toBe('2026-09-06T04:00:00.000Z');
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Santiago', hour: '2-digit', day: '2-digit' }).format(window.start)).toBe('06, 01');
  });

  it('recompute a window only once the clock passes its end', () => {
    const calendar = new PeriodCalendar('UTC');
    const first = calendar.current('day', at('2026-05-01T08:00:00Z'));
    expect(calendar.current('day', at('2026-05-01T23:59:59Z'))).toBe(first);
    const next = calendar.current('day', at('2026-05-02T00:00:00Z'));
    expect(next.start).toBe(first.end);
  });
});
