import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs. Credentials that can appear in requests are redacted at the source, so no
 * handler can leak them by logging a request.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', 'req.headers["x-goog-api-key"]', 'req.headers["mj-api-secret"]', 'res.headers["set-cookie"]', '*.password', '*.key', '*.secret'],
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
 * relay's own work on the request.
 */
export function createStdoutLogger(level: string): Logger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 8192 });
  const timer = setInterval(() => destination.flush(), 1000);
  timer.unref();
  process.on('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // Nothing more can be done while the process exits.
    }
  });
  return createLogger(level, destination);
}

export type { Logger };
