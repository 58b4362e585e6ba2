import { setTimeout as sleep } from 'node:timers/promises';
import { cpuMicros, machineBusyMicros } from './proc-stats.ts';

/**
 * Waits (up to `maxWaitMs`) until processes other than ours use less than `threshold` of a core, so a
 * phase does not start while another tenant of the machine is busy. Returns the other tenants' load
 * seen last, which the report prints beside the figures.
 */
export async function waitForQuiet(ownPids: readonly number[], maxWaitMs = 20_000, threshold = 0.3): Promise<number> {
  const deadline = Date.now() + maxWaitMs;
  let others: number;
  do {
    const pids = [process.pid, ...ownPids];
    const ownBefore = pids.reduce((sum, pid) => sum + safeCpu(pid), 0);
    const machineBefore = machineBusyMicros();
    await sleep(1000);
    const own = pids.reduce((sum, pid) => sum + safeCpu(pid), 0) - ownBefore;
    others = Math.max(0, (machineBusyMicros() - machineBefore - own) / 1_000_000);
    if (others < threshold) return others;
  } while (Date.now() < deadline);
  return others;
}

function safeCpu(pid: number): number {
  try {
    return cpuMicros(pid);
  } catch {
    return 0;
  }
}
