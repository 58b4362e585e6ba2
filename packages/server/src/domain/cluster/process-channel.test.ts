import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ipcChannel, type IpcEnd } from './process-channel.ts';

/** A worker's `process` whose writes to the primary fail with `failure`, as Node reports them: to the callback. */
function failingIpc(failure: NodeJS.ErrnoException): IpcEnd {
  const events = new EventEmitter();
  return {
    connected: true,
    send: (_message, callback) => {
      process.nextTick(callback, failure);
      return false;
    },
    on: (event, listener) => events.on(event, listener),
    once: (event, listener) => events.once(event, listener),
  };
}

const writeError = (code: string) => Object.assign(new Error(`write ${code}`), { code, syscall: 'write' });
const adjust = { sb: 'spend', id: 0, op: 'adjust', key: 't:1', delta: 1 } as const;

describe("a worker's channel to its primary", () => {
  it('drops a message whose write finds the primary gone (EPIPE, ECONNRESET, a closed channel)', async () => {
    for (const code of ['EPIPE', 'ECONNRESET', 'ERR_IPC_CHANNEL_CLOSED']) {
      const failures: Error[] = [];
      ipcChannel(failingIpc(writeError(code)), (error) => failures.push(error)).send(adjust);
      await new Promise((resolve) => process.nextTick(resolve));
      expect(failures).toEqual([]);
    }
  });

  it('still reports any other failure of a write', async () => {
    const failures: Error[] = [];
    ipcChannel(failingIpc(writeError('ENOMEM')), (error) => failures.push(error)).send(adjust);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(failures.map((error) => (error as NodeJS.ErrnoException).code)).toEqual(['ENOMEM']);
  });

  it('lets a real worker process send after its primary closed the channel, before it has seen the disconnect', async () => {
    // The child's link writes while the parent has already closed its end: the child spins through the
    // close, so `process.connected` is still true when it writes, and the write fails with EPIPE.
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
        import { PrimaryLink } from ${JSON.stringify(new URL('./primary-link.ts', import.meta.url).href)};
        const link = new PrimaryLink();
        process.on('message', () => {
          process.send('spinning');
          const until = Date.now() + 1000;
          while (Date.now() < until);
          if (!process.connected) throw new Error('saw the disconnect before writing: the test proves nothing');
          for (let report = 0; report < 3; report += 1) link.send(${JSON.stringify(adjust)});
          setTimeout(() => console.log('still alive'), 200);
        });
        `,
      ],
      { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] },
    );
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.once('message', () => child.disconnect());
    child.send('go');
    expect(await exited, output).toBe(0);
    expect(output).toContain('still alive');
  });
});

/** Runs `script` as a file of its own (a cluster primary forks its workers from its file); its exit code and output. */
async function runScript(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'sb-channel-'));
  try {
    const file = join(folder, 'primary.mjs');
    writeFileSync(file, script);
    const child = spawn(process.execPath, [file], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { code, output };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe("the primary's channel to a worker", () => {
  // A cluster primary answers a worker that closed its channel a moment before (it is exiting): the
  // primary spins through the close, so `isConnected()` is still true when it writes.
  const primaryAnsweringAClosedWorker = `
    import cluster from 'node:cluster';
    import { watchWorkerChannel } from ${JSON.stringify(new URL('./process-channel.ts', import.meta.url).href)};
    if (cluster.isPrimary) {
      const worker = cluster.fork();
      if (process.env.WATCHED === '1') watchWorkerChannel(worker, { error: (_fields, message) => console.log('logged: ' + message) });
      worker.on('message', () => {
        const until = Date.now() + 1000;
        while (Date.now() < until);
        if (!worker.isConnected()) throw new Error('saw the disconnect before writing: the test proves nothing');
        worker.send({ sb: 'reply', id: 1, result: 0 });
        setTimeout(() => { console.log('primary still alive'); worker.kill(); }, 300);
      });
    } else {
      process.send('closing', () => process.disconnect());
      setTimeout(() => undefined, 3000);
    }
  `;

  it('crashes the primary (and so the machine) with an unhandled EPIPE when nothing watches the worker', async () => {
    const run = await runScript(primaryAnsweringAClosedWorker, { WATCHED: '0' });
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toContain('EPIPE');
  });

  it('lets the primary carry on when it watches the worker (run-primary.ts does for each it forks)', async () => {
    const run = await runScript(primaryAnsweringAClosedWorker, { WATCHED: '1' });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('primary still alive');
    expect(run.output).not.toContain('logged');
  });
});
