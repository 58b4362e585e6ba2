/**
 * How long a console write takes to answer, now that it answers only once every worker has applied
 * it: a token disabled and enabled again (`PUT /api/token/?status_only=true`), one write at a time,
 * against a gateway started as users start it (WORKERS=2 by default) on a fresh SQLite file. Several
 * gateways (another checkout's main.ts, to compare with the code before a change) are measured in
 * turns, so a busy machine slows them alike.
 *
 *   node bench/src/micro/console-write-latency.ts [--edits=200] [--workers=2] [--turns=2] [--entries=/a/main.ts,/b/main.ts]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loginAsRoot } from '../../../packages/server/src/testing/running-gateway.ts';
import { startRunningGateway } from '../../../packages/server/src/testing/running-gateway.ts';
import { scriptOptions } from '../platform/script-options.ts';

const options = scriptOptions(process.argv.slice(2));
const edits = Number(options.get('--edits') ?? 200);
const workers = options.get('--workers') ?? '2';
const turns = Number(options.get('--turns') ?? 2);
const thisMain = fileURLToPath(new URL('../../../packages/server/src/main.ts', import.meta.url));
const entries = (options.get('--entries') ?? thisMain).split(',');
const warmUp = 20;
const rootPassword = 'latency-root-pass';

/** The answer times of `edits` token writes on a fresh gateway, in milliseconds. */
async function measure(entry: string): Promise<number[]> {
  const folder = mkdtempSync(join(tmpdir(), 'sb-write-latency-'));
  const gateway = await startRunningGateway(
    {
      WORKERS: workers,
      SQLITE_PATH: join(folder, 'gateway.db'),
      QUOTA_JOURNAL_DIR: join(folder, 'journal'),
      SESSION_SECRET: 'latency-session-secret',
      INITIAL_ROOT_PASSWORD: rootPassword,
      GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
      CRITICAL_RATE_LIMIT_ENABLE: 'false',
    },
    folder,
    entry,
  );
  try {
    // The other workers start once the first has migrated: measure only once all of them serve.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const root = await loginAsRoot(gateway.baseUrl, rootPassword);
    const created = await root.post<{ data: Array<{ id: number }> }>('/api/token/', {
      name: 'latency',
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: -1,
    });
    const id = created.data[0]!.id;
    const times: number[] = [];
    for (let edit = 0; edit < warmUp + edits; edit += 1) {
      const started = performance.now();
      const answer = await root.put('/api/token/?status_only=true', { id, status: edit % 2 === 0 ? 2 : 1 });
      const elapsed = performance.now() - started;
      if (!answer.success) throw new Error(`the write was refused: ${answer.message}`);
      if (edit >= warmUp) times.push(elapsed);
    }
    return times;
  } finally {
    gateway.child.kill('SIGTERM');
    await gateway.exited;
    rmSync(folder, { recursive: true, force: true });
  }
}

const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!;

const results = new Map<string, number[]>(entries.map((entry) => [entry, []]));
for (let turn = 0; turn < turns; turn += 1) for (const entry of entries) results.get(entry)!.push(...(await measure(entry)));
for (const [entry, times] of results) {
  const sorted = times.sort((a, b) => a - b);
  const format = (value: number) => `${value.toFixed(2)} ms`;
  console.log(
    `${entry} (WORKERS=${workers}, ${sorted.length} writes): p50 ${format(percentile(sorted, 0.5))}, p99 ${format(percentile(sorted, 0.99))}, max ${format(sorted.at(-1)!)}`,
  );
}
