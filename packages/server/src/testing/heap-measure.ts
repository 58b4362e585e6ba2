import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// The collector is exposed at run time, so tests measure memory without a special node flag.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/**
 * The heap in use once garbage is collected: collections alternate with turns of the event loop,
 * so that finalizers (FinalizationRegistry callbacks) run and what they release is collected too.
 */
export async function settledHeapBytes(): Promise<number> {
  for (let round = 0; round < 3; round += 1) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
  collect();
  return process.memoryUsage().heapUsed;
}
