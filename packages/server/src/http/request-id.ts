import { randomBytes } from 'node:crypto';

/**
 * new-api's request id shape: UTC time to the second, then randomness. Sortable in logs, unique
 * across instances, and echoed to callers in `X-Oneapi-Request-Id`.
 */
export function generateRequestId(): string {
  const now = new Date();
  const stamp = now.toISOString().replace(/[-:TZ.]/g, '').slice(0, 14);
  return `${stamp}${randomBytes(8).toString('hex')}`;
}

export const requestIdHeader = 'X-Oneapi-Request-Id';
