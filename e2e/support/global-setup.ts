import { preparedServerEntry } from '../../packages/server/src/entry/bundle/server-entry.ts';
import { buildConsoleWhenStale } from '../../scripts/lib/console-build.ts';

/**
 * Builds, once for the whole run, the server bundle the tests' servers run (as `npm start` runs it)
 * and the console, each when it is missing or older than its sources.
 */
export default async function setup(): Promise<void> {
  await preparedServerEntry((message) => {
    throw new Error(message);
  });
  buildConsoleWhenStale();
}
