import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A child process started by the harness; every one is stopped at the end, on error and on Ctrl-C. */
export interface Started {
  readonly name: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Graceful stop (SIGTERM, then SIGKILL after the grace period); resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

const running = new Set<Started>();

export interface StartOptions {
  name: string;
  command: string;
  args: readonly string[];
  /** CPU list for taskset (for example "0"); the child runs pinned from its first instruction. */
  cpus?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** stdout and stderr go to this file, so a chatty child never costs the harness CPU. */
  logFile: string;
  /** A program the command runs under, with its arguments (valgrind for instruction counts). */
  wrapper?: readonly string[];
}

export function startProcess(options: StartOptions): Started {
  const out = openSync(options.logFile, 'a');
  const program = [...(options.wrapper ?? []), options.command, ...options.args];
  const [command = options.command, ...args] = options.cpus ? ['taskset', '-c', options.cpus, ...program] : program;
  // taskset execs the program, so the pid is the program's own and /proc/<pid> describes it.
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', out, out] });
  closeSync(out);
  if (child.pid === undefined) throw new Error(`could not start ${options.name}`);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started: Started = {
    name: options.name,
    pid: child.pid,
    child,
    async stop(graceMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        const code = await exited;
        clearTimeout(timer);
        running.delete(started);
        return code;
      }
      running.delete(started);
      return child.exitCode;
    },
  };
  running.add(started);
  child.once('exit', () => running.delete(started));
  return started;
}

/** True while the child has not exited. */
export function isAlive(started: Started): boolean {
  return started.child.exitCode === null && started.child.signalCode === null;
}

/** Waits until something accepts TCP connections on 127.0.0.1:port, or the child dies, or time runs out. */
export async function waitForPort(port: number, started: Started, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(started)) throw new Error(`${started.name} exited (code ${started.child.exitCode}) before listening on port ${port}; see its log`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(100);
  }
  throw new Error(`${started.name} did not listen on port ${port} within ${timeoutMs} ms`);
}

/** Stops every child still running (in parallel); used at the end and on interruption. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((started) => started.stop(5_000)));
}

/** Kills whatever is left synchronously: the last resort when the harness itself is exiting. */
export function killAllNow(): void {
  for (const started of running) started.child.kill('SIGKILL');
}

/** Ctrl-C or a kill stops the children before the harness exits; a second Ctrl-C kills them at once. */
export function stopChildrenOnSignals(onStop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      killAllNow();
      process.exit(130);
    }
    stopping = true;
    console.error(`\n${signal}: stopping every process the bench started…`);
    void onStop()
      .catch(() => undefined)
      .finally(() => {
        killAllNow();
        process.exit(130);
      });
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  process.on('exit', killAllNow);
}

/** Asks the kernel for a free loopback port. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
