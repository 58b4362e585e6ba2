import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { formatLogLine, prettyDestination } from './pretty-log.ts';

function capture() {
  const written: string[] = [];
  const destination = prettyDestination({ write: (text: string) => written.push(text) }, false);
  return { logger: createLogger('debug', destination), written };
}

const clock = /^\d{2}:\d{2}:\d{2}\.\d{3} /;

describe('terminal log', () => {
  it('shows a line as time, level, message and the fields that say something, redacted as the JSON', () => {
    const { logger, written } = capture();
    logger.warn({ workers: 2, user: { password: 'hunter22' } }, 'SESSION_SECRET is not set');
    expect(written).toHaveLength(1);
    const line = written[0]!;
    expect(line).toMatch(clock);
    expect(line).toContain('WARN  SESSION_SECRET is not set workers=2 user={"password":"[redacted]"}\n');
    expect(line).not.toContain('hunter22');
    expect(line).not.toContain('service=');
    expect(line).not.toContain('pid=');
  });

  it('reads an access line as the request it was', () => {
    const line = formatLogLine(
      '{"level":30,"time":1764300000000,"service":"switchboard","reqId":"r1","method":"GET","url":"/api/status","status":200,"ms":3,"msg":"request"}',
      false,
    );
    expect(line).toMatch(clock);
    expect(line.slice(13)).toBe('INFO  GET /api/status 200 3 ms reqId=r1');
  });

  it("puts an error's stack under its line and leaves text that is not JSON as it is", () => {
    const { logger, written } = capture();
    logger.error({ err: new Error('database is gone') }, 'a worker process died');
    expect(written[0]).toContain('ERROR a worker process died\n    Error: database is gone\n    ');
    expect(formatLogLine('plain text', true)).toBe('plain text');
  });

  it('colours the level only when asked', () => {
    const line = '{"level":50,"time":1764300000000,"msg":"x"}';
    expect(formatLogLine(line, true)).toContain('\u001b[31mERROR\u001b[0m');
    expect(formatLogLine(line, false)).not.toContain('\u001b[');
  });

  it('joins a line written in two pieces', () => {
    const written: string[] = [];
    const destination = prettyDestination({ write: (text: string) => written.push(text) }, false);
    destination.write('{"level":30,"time":1764300000000,');
    expect(written).toEqual([]);
    destination.write('"msg":"stopped"}\n');
    expect(written[0]).toMatch(/INFO {2}stopped\n$/);
  });
});
