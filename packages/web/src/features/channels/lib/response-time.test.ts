import { describe, expect, it } from 'vitest';
import { responseTimeColour } from './response-time.ts';

describe('responseTimeColour', () => {
  it('greys a channel that was never tested', () => {
    expect(responseTimeColour(0)).toBe('default');
  });

  it('follows the spec bands: up to 1 s green, 3 s lime, 5 s yellow, beyond red', () => {
    expect([1, 1000, 1001, 3000, 3001, 5000, 5001, 60_000].map(responseTimeColour)).toEqual(['green', 'green', 'lime', 'lime', 'gold', 'gold', 'red', 'red']);
  });
});
