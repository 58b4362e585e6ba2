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

export type { Logger };
