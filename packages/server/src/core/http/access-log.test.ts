import { Writable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../platform/logger.ts';
import { safeParseJson } from '../platform/safe-json.ts';
import { createAccessLog } from './access-log.ts';

function capture(level: string) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  return { logger: createLogger(level, destination), lines };
}

const request = {
  id: '20261124050100abcdef0100000001',
  method: 'POST',
  url: '/v1beta/models/gemini-pro:generateContent?key=secret-key',
  routeOptions: { url: '/v1beta/models/*', config: { url: '/v1beta/models/*' } },
} as unknown as FastifyRequest;
const consoleFile = (url: string, route: string | undefined) =>
  ({ id: '20261124050100abcdef0100000002', method: 'GET', url, routeOptions: { url: route, config: { url: route } } }) as unknown as FastifyRequest;
const reply = { statusCode: 200, elapsedTime: 12.6 } as FastifyReply;

describe('access log', () => {
  it('writes one line per request in the shape of the other log lines, without the query', () => {
    const { logger, lines } = capture('info');
    createAccessLog(logger)?.(request, reply);
    logger.info({ reqId: 'x' }, 'other');
    const [access, other] = lines.map((line) => safeParseJson(line));
    expect(access?.ok && access.value).toMatchObject({
      level: 30,
      service: 'switchboard',
      reqId: request.id,
      method: 'POST',
      url: '/v1beta/models/gemini-pro:generateContent',
      status: 200,
      ms: 13,
      msg: 'request',
    });
    expect(lines[0]).not.toContain('secret-key');
    // Same keys as a line pino writes itself (bar the fields of each message).
    const keys = (value: unknown) => Object.keys(value as object).filter((key) => !['method', 'url', 'status', 'ms'].includes(key));
    expect(access?.ok && keys(access.value)).toEqual(other?.ok && keys(other.value));
  });

  it('is off when info lines are', () => {
    expect(createAccessLog(capture('warn').logger)).toBeUndefined();
  });

  it('writes the console page and its files at debug only, and a failed one at info', () => {
    const quiet = capture('info');
    const writeQuiet = createAccessLog(quiet.logger);
    writeQuiet?.(consoleFile('/assets/index-abc.js', '/*'), reply);
    writeQuiet?.(consoleFile('/', '/'), reply);
    writeQuiet?.(consoleFile('/token', undefined), reply);
    writeQuiet?.(consoleFile('/api/status', '/api/status'), reply);
    writeQuiet?.(consoleFile('/assets/missing.js', undefined), { statusCode: 404, elapsedTime: 1 } as FastifyReply);
    expect(quiet.lines.map((line) => (safeParseJson(line) as { ok: true; value: { url: string; level: number } }).value)).toEqual([
      expect.objectContaining({ url: '/api/status', level: 30 }),
      expect.objectContaining({ url: '/assets/missing.js', level: 30 }),
    ]);

    const verbose = capture('debug');
    createAccessLog(verbose.logger)?.(consoleFile('/assets/index-abc.js', '/*'), reply);
    expect(safeParseJson(verbose.lines[0] ?? '')).toMatchObject({ ok: true, value: { url: '/assets/index-abc.js', level: 20 } });
  });
});
