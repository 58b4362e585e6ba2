import pino, { type Logger } from 'pino';
import { bufferedLogDestination } from './buffered-log-destination.ts';
import { prettyDestination } from './pretty-log.ts';

/**
 * Structured JSON logs. Credentials that can appear in requests are redacted at the source, so no
 * handler can leak them by logging a request.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-api-key"]',
          'req.headers["x-goog-api-key"]',
          'req.headers["mj-api-secret"]',
          'res.headers["set-cookie"]',
          '*.password',
          '*.key',
          '*.secret',
        ],
        censor: '[redacted]',
      },
      base: { service: 'switchboard' },
    },
    destination,
  );
}

/**
 * The process's own log on stdout, written in blocks (every 8 KB, every second, and at exit) rather
 * than one write per line: under load a synchronous write per access line cost more CPU than the
 * relay's own work on the request. On a terminal (`pretty`) the lines are shown as text
 * (`pretty-log.ts`), written at once so they appear as they happen; elsewhere they stay JSON.
 */
export function createStdoutLogger(level: string, pretty = false): Logger {
  const destination = bufferedLogDestination(1, pretty ? 0 : 8192);
  const timer = setInterval(() => destination.flush(), 1000);
  timer.unref();
  process.on('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // Nothing more can be done while the process exits.
    }
  });
  return createLogger(level, pretty ? prettyDestination(destination, true) : destination);
}

export type { Logger };

type LogMethod = (...args: unknown[]) => void;

/**
 * Fastify's per-request logger (`request.log`), made only when something logs through it. Fastify
 * builds one for every request, and a pino child with redaction costs an allocation-heavy bindings
 * pass; on the relay almost no request ever logs through its own.
 */
export class LazyChildLogger {
  private readonly parent: Logger;
  private readonly bindings: Record<string, unknown>;
  private made: Logger | undefined;

  constructor(parent: Logger, bindings: Record<string, unknown>) {
    this.parent = parent;
    this.bindings = bindings;
  }

  private get logger(): Logger {
    this.made ??= this.parent.child(this.bindings);
    return this.made;
  }

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  fatal(...args: unknown[]): void {
    (this.logger.fatal as LogMethod)(...args);
  }
  error(...args: unknown[]): void {
    (this.logger.error as LogMethod)(...args);
  }
  warn(...args: unknown[]): void {
    (this.logger.warn as LogMethod)(...args);
  }
  info(...args: unknown[]): void {
    (this.logger.info as LogMethod)(...args);
  }
  debug(...args: unknown[]): void {
    (this.logger.debug as LogMethod)(...args);
  }
  trace(...args: unknown[]): void {
    (this.logger.trace as LogMethod)(...args);
  }
  silent(): void {}
  child(bindings: Record<string, unknown>): Logger {
    return this.logger.child(bindings);
  }
}
