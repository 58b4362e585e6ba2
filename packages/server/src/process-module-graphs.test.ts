import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Every module a fresh Node process loads for `entries` (imported in order), and Node's own modules it loaded. */
function loadedBy(entries: readonly string[]): { files: string[]; nodeInternals: string[] } {
  const urls = entries.map((entry) => new URL(entry, import.meta.url).href);
  const child = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
      import { registerHooks } from 'node:module';
      const files = [];
      registerHooks({ load(url, context, nextLoad) { if (url.startsWith('file:')) files.push(url); return nextLoad(url, context); } });
      for (const url of ${JSON.stringify(urls)}) await import(url);
      console.log(JSON.stringify({ files, nodeInternals: process.moduleLoadList }));
      `,
    ],
    { encoding: 'utf8' },
  );
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as { files: string[]; nodeInternals: string[] };
}

const sourceRoot = new URL('./', import.meta.url).href;
/** A loaded file's place: `src/<path>` for ours, the package name for node_modules. */
function places(files: readonly string[]): { ours: string[]; packages: string[] } {
  const ours = files.filter((file) => file.startsWith(sourceRoot)).map((file) => file.slice(sourceRoot.length));
  const packages = files.flatMap((file) => {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
    return match ? [match[1]!] : [];
  });
  return { ours, packages: [...new Set(packages)].sort() };
}

// Node's own undici (its fetch and WebSocket): an ES import of node:http loads it (http/status-text.ts).
const nodeOwnUndici = 'NativeModule internal/deps/undici/undici';

describe("the processes' module graphs", () => {
  it("the WORKERS primary loads the supervisor, its services and what main.ts reads first, none of the gateway's modules", () => {
    // What main.ts imports in the primary: the config, the logger, then the supervisor.
    const { files, nodeInternals } = loadedBy(['./core/config/config.ts', './core/platform/logger.ts', './domain/cluster/run-primary.ts']);
    const { ours, packages } = places(files);
    const gatewayAreas =
      /^entry\/|^domain\/(auth|budgets|logs|options|groups|bootstrap)\/|^core\/(messages|jobs|db)\/|^domain\/billing\/(?!spend-lease-book\.ts)|^domain\/limits\/(?!(memory-limit-store|limit-store)\.ts)|^(app|serve-process)\.ts/;
    expect(ours.filter((file) => gatewayAreas.test(file))).toEqual([]);
    expect(ours).toContain('domain/cluster/run-primary.ts');
    // The gateway's packages (HTTP framework, database drivers, upstream client, tokenizer) stay out.
    for (const gatewayPackage of [
      'fastify',
      'kysely',
      'undici',
      'better-sqlite3',
      'pg',
      'mysql2',
      'ioredis',
      'gpt-tokenizer',
      'prom-client',
      'ws',
      '@node-rs/argon2',
      'koffi',
    ])
      expect(packages).not.toContain(gatewayPackage);
    expect(nodeInternals).not.toContain(nodeOwnUndici);
  });

  it("a gateway process does not load Node's own undici at start", () => {
    const { files, nodeInternals } = loadedBy(['./serve-process.ts']);
    // The check means something only if the gateway's graph was loaded (Fastify and the relay's undici from npm).
    expect(places(files).packages).toEqual(expect.arrayContaining(['fastify', 'undici']));
    expect(nodeInternals).not.toContain(nodeOwnUndici);
  });

  it('a gateway process loads koffi only when the memory return first trims, not at start', () => {
    // koffi and its native part cost a process about 1 MiB: only a process that had a burst to give back pays it.
    const { files } = loadedBy(['./serve-process.ts']);
    expect(places(files).packages).toContain('fastify');
    expect(places(files).packages.filter((name) => name.includes('koffi'))).toEqual([]);
  });
});
