import { randomBytes } from 'node:crypto';

/** Random per process, so ids from several instances never collide. */
const processPart = randomBytes(4).toString('hex');
let counter = 0;
let stampSecond = -1;
let stamp = '';

/**
 * new-api's request id shape: UTC time to the second, then 16 more characters, here this process's
 * random part and a counter. Sortable in logs, unique across instances, echoed to callers in
 * `X-Oneapi-Request-Id`, and cheap: no clock formatting or randomness per request.
 */
export function generateRequestId(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== stampSecond) {
    stampSecond = second;
    stamp = new Date(now)
      .toISOString()
      .replace(/[-:TZ.]/g, '')
      .slice(0, 14);
  }
  counter = (counter + 1) % 0x100000000;
  return `${stamp}${processPart}${counter.toString(16).padStart(8, '0')}`;
}

export const requestIdHeader = 'X-Oneapi-Request-Id';
