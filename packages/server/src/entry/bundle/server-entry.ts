import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServerBundle, bundledMain } from './build-server-bundle.ts';
import { builtAfter } from './newest-change.ts';

const sourceMain = fileURLToPath(new URL('../../main.ts', import.meta.url));
const packagesRoot = fileURLToPath(new URL('../../../../', import.meta.url));
/** What the bundle is made of: a change to any of these makes it stale. */
const bundleInputs = [join(packagesRoot, 'server', 'src'), join(packagesRoot, 'contracts', 'src'), join(packagesRoot, 'server', 'package.json')];

/**
 * The file to start the server from (`npm start`, the bench, the browser tests): the prebuilt bundle,
 * built first when it is missing or older than any source (about 0.2 s). Without the bundler (an
 * install without dev packages) a stale or missing bundle is not run: the TypeScript sources are,
 * so what runs is never older than the checkout.
 */
export async function preparedServerEntry(warn: (message: string) => void = console.warn): Promise<string> {
  if (builtAfter(bundledMain, bundleInputs)) return bundledMain;
  try {
    await buildServerBundle();
    return bundledMain;
  } catch (error) {
    warn(`The server bundle could not be built (${error instanceof Error ? error.message : String(error)}); running from the TypeScript sources.`);
    return sourceMain;
  }
}
