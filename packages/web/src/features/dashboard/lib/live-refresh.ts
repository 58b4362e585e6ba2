/** How often a dashboard whose range reaches the present asks again: new logs count within seconds. */
export const liveRefreshSeconds = 10;

/** Whether the range still includes the present (the default range ends an hour ahead). */
export function isLive(endTimestamp: number, nowMs = Date.now()): boolean {
  return endTimestamp * 1000 > nowMs;
}

/** React Query's refetch interval: every few seconds while live, never for a range in the past. */
export function liveRefetchInterval(endTimestamp: number, nowMs = Date.now()): number | false {
  return isLive(endTimestamp, nowMs) ? liveRefreshSeconds * 1000 : false;
}
