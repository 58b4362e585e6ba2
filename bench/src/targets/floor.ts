import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { serverNodeFlags } from '../../../packages/server/src/node-flags.ts';
import { eventLoopResolutionMs } from '../../../packages/server/src/core/platform/metrics.ts';
import { freePort, startProcess, waitForPort } from '../platform/processes.ts';
import { chatPath, type Target } from './target.ts';

/** The pass-throughs floor-server.ts runs: node:http or Fastify, the answer piped or sent whole. */
export type FloorKind = 'http' | 'fastify' | 'http-whole' | 'fastify-whole';

export const floorLabels: Record<FloorKind, string> = {
  http: 'node:http + undici pass-through (floor)',
  fastify: 'Fastify + undici pass-through',
  'http-whole': 'node:http + undici, the answer sent whole',
  'fastify-whole': 'Fastify + undici, the answer sent whole',
};

/**
 * The bare pass-through (floor-server.ts: node:http, or Fastify) in its own pinned process, with
 * Switchboard's Node flags. `eventLoopMonitor` as for Switchboard (SwitchboardStart): only a run that
 * measures stalls needs it, and it costs a wake-up every few milliseconds.
 */
export async function startFloor(options: {
  runDir: string;
  upstreamOrigin: string;
  cpus: string;
  kind?: FloorKind;
  eventLoopMonitor: boolean;
  /** A program the floor runs under (valgrind), and how long it may take to listen then. */
  wrapper?: readonly string[];
  startTimeoutMs?: number;
  /** Node flags beside Switchboard's (for example --inspect). */
  nodeFlags?: readonly string[];
}): Promise<Target> {
  const kind = options.kind ?? 'http';
  const port = await freePort();
  const started = startProcess({
    name: kind === 'http' ? 'floor' : `floor-${kind}`,
    command: process.execPath,
    args: [
      ...serverNodeFlags,
      ...(options.nodeFlags ?? []),
      fileURLToPath(new URL('./floor-server.ts', import.meta.url)),
      String(port),
      options.upstreamOrigin,
      kind,
      options.eventLoopMonitor ? 'monitored' : 'unmonitored',
    ],
    cpus: options.cpus,
    logFile: join(options.runDir, `floor-${kind}.log`),
    ...(options.wrapper ? { wrapper: options.wrapper } : {}),
  });
  await waitForPort(port, started, options.startTimeoutMs);
  const origin = `http://127.0.0.1:${port}`;
  const eventLoopMaxDelayMs = async (): Promise<number | undefined> => {
    const answer = await request(`${origin}/event-loop-max`).catch(() => undefined);
    if (!answer || answer.statusCode !== 200) return undefined;
    const { maxMs } = (await answer.body.json()) as { maxMs: number };
    return Math.max(0, maxMs - eventLoopResolutionMs);
  };
  return {
    id: kind === 'http' ? 'floor' : `floor-${kind}`,
    label: floorLabels[kind],
    origin,
    path: chatPath,
    headers: { authorization: 'Bearer fake-key-floor' },
    process: started,
    ...(options.eventLoopMonitor ? { eventLoopMaxDelayMs } : {}),
  };
}

/** The fake upstream in its own process, on the load generator's core. */
export async function startFakeUpstream(options: { runDir: string; cpus: string }): Promise<{ target: Target; pid: number; origin: string }> {
  const port = await freePort();
  const started = startProcess({
    name: 'fake upstream',
    command: process.execPath,
    args: [fileURLToPath(new URL('../fake-upstream/fake-upstream.ts', import.meta.url)), String(port)],
    cpus: options.cpus,
    logFile: join(options.runDir, 'fake-upstream.log'),
  });
  await waitForPort(port, started);
  const origin = `http://127.0.0.1:${port}`;
  return {
    target: { id: 'direct', label: 'fake upstream, direct', origin, path: chatPath, headers: { authorization: 'Bearer fake-key-direct' } },
    pid: started.pid,
    origin,
  };
}
