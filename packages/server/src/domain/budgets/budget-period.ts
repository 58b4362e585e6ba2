/** How often a budget starts again: every day, every week (from Monday) or every month. */
export const budgetPeriods = ['day', 'week', 'month'] as const;
export type BudgetPeriod = (typeof budgetPeriods)[number];

export function isBudgetPeriod(value: string): value is BudgetPeriod {
  return (budgetPeriods as readonly string[]).includes(value);
}

/** One period: from `start` (included) to `end` (excluded), both unix milliseconds. */
export interface PeriodWindow {
  readonly start: number;
  readonly end: number;
}

interface LocalDate {
  readonly year: number;
  /** 1 to 12. */
  readonly month: number;
  readonly day: number;
}

const dayMs = 86_400_000;
const weekdays: Record<string, number> = { Mon: 0, Tue: 1, Wed: 2, Thu: 3, Fri: 4, Sat: 5, Sun: 6 };
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall clock of instant `ms` in `timeZone`. */
function wallClock(ms: number, timeZone: string): LocalDate & { weekday: number; wallMs: number } {
  const parts: Record<string, string> = {};
  for (const part of formatterFor(timeZone).formatToParts(ms)) parts[part.type] = part.value;
  const year = Number(parts.year);
  const month = Number(parts.month);
  const day = Number(parts.day);
  const wallMs = Date.UTC(year, month - 1, day, Number(parts.hour), Number(parts.minute), Number(parts.second));
  return { year, month, day, weekday: weekdays[parts.weekday ?? 'Mon'] ?? 0, wallMs };
}

/**
 * The first instant of local date `date` in `timeZone`. The zone's offset is read at a first guess
 * and once more at the corrected instant, which lands exactly when a DST change happens elsewhere in
 * the day. Where midnight itself does not exist (a DST jump at 00:00), the day starts at the end of
 * the gap, the first instant whose local date is `date`.
 */
function startOfLocalDay(date: LocalDate, timeZone: string): number {
  const wallMidnight = Date.UTC(date.year, date.month - 1, date.day);
  const offsetAt = (ms: number) => wallClock(ms, timeZone).wallMs - Math.floor(ms / 1000) * 1000;
  const first = wallMidnight - offsetAt(wallMidnight);
  const second = wallMidnight - offsetAt(first);
  for (const candidate of [Math.min(first, second), Math.max(first, second)]) {
    const local = wallClock(candidate, timeZone);
    if (local.year === date.year && local.month === date.month && local.day === date.day) return candidate;
  }
  // Midnight falls in a gap: the later candidate is past it, on the right date's first hour.
  return Math.max(first, second);
}

function addDays(date: LocalDate, days: number): LocalDate {
  const shifted = new Date(Date.UTC(date.year, date.month - 1, date.day) + days * dayMs);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** The period of kind `period` holding instant `nowMs`, with days starting at midnight in `timeZone`. */
export function periodWindow(period: BudgetPeriod, nowMs: number, timeZone: string): PeriodWindow {
  const today = wallClock(nowMs, timeZone);
  let first: LocalDate;
  let next: LocalDate;
  if (period === 'day') {
    first = today;
    next = addDays(today, 1);
  } else if (period === 'week') {
    first = addDays(today, -today.weekday);
    next = addDays(first, 7);
  } else {
    first = { year: today.year, month: today.month, day: 1 };
    next = today.month === 12 ? { year: today.year + 1, month: 1, day: 1 } : { year: today.year, month: today.month + 1, day: 1 };
  }
  return { start: startOfLocalDay(first, timeZone), end: startOfLocalDay(next, timeZone) };
}

/**
 * The current window of each period kind, recomputed only when the clock passes its end: the relay
 * asks on every budgeted request, and a comparison is all it costs between two boundaries.
 */
export class PeriodCalendar {
  private readonly zone: () => string;
  private readonly windows = new Map<BudgetPeriod, PeriodWindow>();

  /** `timeZone` may be the config's, read on first use: resolving the system's zone loads ICU's data (config.ts). */
  constructor(timeZone: string | (() => string)) {
    this.zone = typeof timeZone === 'string' ? () => timeZone : timeZone;
  }

  get timeZone(): string {
    return this.zone();
  }

  current(period: BudgetPeriod, nowMs: number): PeriodWindow {
    const known = this.windows.get(period);
    if (known && nowMs >= known.start && nowMs < known.end) return known;
    const window = periodWindow(period, nowMs, this.timeZone);
    this.windows.set(period, window);
    return window;
  }
}
