import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gatewayBundleFolder, gatewayBundleVariable, gatewayEntry } from './gateway-bundle.ts';

describe('the entry test gateways start from', () => {
  it("is the run's bundle when the suite's global setup built one, else main.ts from the sources", () => {
    const folder = gatewayBundleFolder('abc123');
    expect(folder).toMatch(/\/packages\/server\/dist-test-run-abc123\/$/);
    expect(gatewayEntry({ [gatewayBundleVariable]: folder })).toBe(`${folder}main.mjs`);
    expect(gatewayEntry({})).toMatch(/\/packages\/server\/src\/main\.ts$/);
    expect(existsSync(gatewayEntry({}))).toBe(true);
  });

  it('is, within this suite, a bundle built for the run', () => {
    const entry = gatewayEntry();
    expect(entry).toMatch(/\/dist-test-run-[a-z0-9]+\/main\.mjs$/);
    expect(existsSync(entry)).toBe(true);
  });
});
