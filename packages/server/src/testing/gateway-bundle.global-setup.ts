import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { buildServerBundle } from '../entry/bundle/build-server-bundle.ts';
import { gatewayBundleFolder, gatewayBundleVariable } from './gateway-bundle.ts';

/**
 * Vitest global setup of the unit suite: builds the server bundle the tests' gateway processes start
 * from (testing/gateway-bundle.ts), once per run and before any worker is forked, so every file sees
 * the folder in `gatewayBundleVariable`; removes it when the run ends.
 */
export default async function setup(): Promise<() => void> {
  // Every project of the suite runs its global setup, in this one process: the first builds.
  const run = globalThis as { switchboardGatewayBundle?: boolean };
  if (run.switchboardGatewayBundle) return () => {};
  run.switchboardGatewayBundle = true;
  const folder = gatewayBundleFolder(`${process.pid.toString(36)}${randomBytes(4).toString('hex')}`);
  await buildServerBundle(folder);
  process.env[gatewayBundleVariable] = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}
