import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
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
