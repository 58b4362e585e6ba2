import { describe, expect, it } from 'vitest';
import { binaryBytes, privateBytes, rssBytes } from './proc-stats.ts';

describe('proc-stats', () => {
  it("splits a process's RSS into its executable's shared pages and its private memory", () => {
    const binary = binaryBytes(process.pid);
    // This Node process has run code from its binary; those pages are part of its RSS, not of its private memory.
    expect(binary).toBeGreaterThan(10 * 1024 * 1024);
    expect(binary).toBeLessThan(rssBytes(process.pid) - privateBytes(process.pid) + 1024 * 1024);
  });
});
