import { connect } from 'node:net';

/**
 * The database and cache servers the suites run on besides SQLite. A URL in the environment wins;
 * otherwise a server listening on its standard local port is used with the logins the README gives.
 */
export const testBackends = [
  { variable: 'TEST_PG_URL', name: 'PostgreSQL', port: 5432, localUrl: 'postgres://postgres:postgres@127.0.0.1:5432/postgres' },
  { variable: 'TEST_MYSQL_URL', name: 'MySQL', port: 3306, localUrl: 'mysql://root@127.0.0.1:3306/test' },
  { variable: 'TEST_REDIS_URL', name: 'Redis', port: 6379, localUrl: 'redis://127.0.0.1:6379' },
] as const;

export type BackendName = (typeof testBackends)[number]['name'];

export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: 500 });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/**
 * Fills the backend variables of `env` for the servers that listen locally, and says which backends
 * the suites will run on and which are missing.
 */
export async function resolveTestBackends(
  env: Record<string, string | undefined>,
  isListening: (port: number) => Promise<boolean> = listening,
): Promise<{ present: BackendName[]; missing: BackendName[] }> {
  const present: BackendName[] = [];
  const missing: BackendName[] = [];
  for (const backend of testBackends) {
    if (!env[backend.variable] && (await isListening(backend.port))) env[backend.variable] = backend.localUrl;
    (env[backend.variable] ? present : missing).push(backend.name);
  }
  return { present, missing };
}

/** The refusal under CI, or undefined when the run may go on. */
export function missingBackendsError(missing: readonly BackendName[], ci: boolean): string | undefined {
  if (missing.length === 0 || !ci) return undefined;
  const names = missing.map((name) => `${name} (${testBackends.find((backend) => backend.name === name)?.variable})`).join(', ');
  return `CI requires every test backend; not configured or not listening: ${names}`;
}
