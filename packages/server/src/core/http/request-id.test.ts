import { describe, expect, it } from 'vitest';
import { generateRequestId } from './request-id.ts';

describe('request ids', () => {
  it('start with the UTC time to the second, as new-api ids do, and have its length', () => {
    const before = new Date()
      .toISOString()
      .replace(/[-:TZ.]/g, '')
      .slice(0, 14);
    const id = generateRequestId();
    expect(id).toMatch(/^\d{14}[0-9a-f]{16}$/);
    expect(id.slice(0, 14) >= before).toBe(true);
  });

  it('never repeat within a process', () => {
    const ids = new Set(Array.from({ length: 10_000 }, generateRequestId));
    expect(ids.size).toBe(10_000);
  });
});
