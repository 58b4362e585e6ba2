import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bufferedLogDestination } from './buffered-log-destination.ts';
import { createLogger } from './logger.ts';

describe('bufferedLogDestination', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  function logFile(): { path: string; fd: number } {
    const folder = mkdtempSync(join(tmpdir(), 'switchboard-log-'));
    folders.push(folder);
    const path = join(folder, 'out.log');
    return { path, fd: openSync(path, 'w') };
  }

  it('holds lines until a block is full, then writes them whole and in order', async () => {
    const { path, fd } = logFile();
    const destination = bufferedLogDestination(fd, 1024);
    destination.write('{"msg":"first"}\n');
    expect(readFileSync(path, 'utf8')).toBe('');
    const lines = Array.from({ length: 100 }, (_, index) => `{"msg":"line ${index}","text":"日志 ${'x'.repeat(20)}"}\n`);
    for (const line of lines) destination.write(line);
    // The first full block went out asynchronously as it filled; the rest once flushed.
    await new Promise<void>((resolve, reject) => destination.flush((error) => (error ? reject(error) : resolve())));
    closeSync(fd);
    expect(readFileSync(path, 'utf8')).toBe(`{"msg":"first"}\n${lines.join('')}`);
  });

  it('carries pino lines, redaction and multi-byte text included', () => {
    const { path, fd } = logFile();
    const destination = bufferedLogDestination(fd, 8192);
    const logger = createLogger('info', destination);
    logger.info({ user: { password: 'hunter22' } }, '渠道已禁用');
    destination.flushSync();
    closeSync(fd);
    const line = JSON.parse(readFileSync(path, 'utf8')) as { msg: string; user: { password: string } };
    expect(line.msg).toBe('渠道已禁用');
    expect(line.user.password).toBe('[redacted]');
  });
});
