import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', '__fixtures__', name), 'utf8');

/** slug → [status page answer, heartbeat answer] (see `__fixtures__/README.md`). */
const pages: Record<string, [string, string]> = {
  core: [fixture('status-page-core.json'), fixture('heartbeat-core.json')],
  'core-v2': [fixture('status-page-core.json'), fixture('heartbeat-core-v2.json')],
};

export interface FakeUptimeKuma {
  readonly url: string;
  /** Paths asked for, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * A local Uptime Kuma on 127.0.0.1 answering its public status page API for the slugs above, and
 * 404 `{"ok":false,"msg":"Status Page Not Found"}` (its answer for an unknown slug) for any other.
 */
export async function startFakeUptimeKuma(): Promise<FakeUptimeKuma> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '';
    requests.push(path);
    const heartbeat = /^\/api\/status-page\/heartbeat\/([\w-]+)$/.exec(path);
    const page = /^\/api\/status-page\/([\w-]+)$/.exec(path);
    const answers = pages[(heartbeat ?? page)?.[1] ?? ''];
    response.setHeader('content-type', 'application/json; charset=utf-8');
    if (!answers) {
      response.statusCode = 404;
      response.end('{"ok":false,"msg":"Status Page Not Found"}');
      return;
    }
    response.end(heartbeat ? answers[1] : answers[0]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
