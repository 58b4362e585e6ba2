import dayjs from 'dayjs';

/** How the console writes a moment: local time, to the second. */
export const dateTimeFormat = 'YYYY-MM-DD HH:mm:ss';

/**
 * A Unix time as the console shows it, in seconds (every API time) or milliseconds (the drawing
 * proxy's); 0 is the time of something that has not happened (never tested, not finished): '-'.
 */
export function formatUnixTime(time: number, unit: 'seconds' | 'milliseconds' = 'seconds'): string {
  if (!time) return '-';
  return (unit === 'seconds' ? dayjs.unix(time) : dayjs(time)).format(dateTimeFormat);
}
