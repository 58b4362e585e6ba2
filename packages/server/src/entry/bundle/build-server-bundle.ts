import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import serverPackage from '../../../package.json' with { type: 'json' };

/**
 * The server as plain JavaScript: `packages/server/dist/main.mjs`, with the SQLite writer thread beside
 * it. Node then runs no TypeScript stripper (about 18 MB of WebAssembly and heap per isolate) and
 * compiles only the code a request reaches; code behind a dynamic `import()` becomes its own chunk,
 * loaded on first use. Packages from node_modules stay outside (native drivers, and one copy on disk
 * for tests, bench and server), except our own workspace packages and `bundledPackages`.
 *
 * The files sit in one folder at the same depth as `src/`, so `new URL('../../web/dist', import.meta.url)`
 * and the writer thread's `./sqlite-batch-worker.thread.mjs` resolve the same from a chunk as from source.
 */
export const serverDist = fileURLToPath(new URL('../../../dist/', import.meta.url));
export const bundledMain = `${serverDist}main.mjs`;

// Relative to this file, as imports are, so moving a folder rewrites them with the imports.
const entryPoints = {
  main: fileURLToPath(new URL('../../main.ts', import.meta.url)),
  'sqlite-batch-worker.thread': fileURLToPath(new URL('../../core/platform/sqlite-batch-worker.thread.ts', import.meta.url)),
};

/** Pure-ESM packages bundled in, so `onlyEnglishZodMessages` can leave out what the server never loads. */
const bundledPackages = new Set(['zod']);

/**
 * `zod` re-exports all of its 50 locales (`z.locales`, about 0.4 MB of source V8 keeps in the heap of
 * every process); the server uses only the English messages zod sets by default, so the bundle's
 * `z.locales` holds `en` alone.
 */
const onlyEnglishZodMessages: Plugin = {
  name: 'only-english-zod-messages',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${sep}zod${sep}`) ? { path: join(dirname(args.importer), '..', 'locales'), namespace: 'zod-english-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-locales' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: args.path,
    }));
  },
};

/** Packages the bundle imports at run time rather than containing: every dependency except our workspace packages and `bundledPackages`. */
function externalPackages(): string[] {
  const names = [...Object.keys(serverPackage.dependencies), ...Object.keys(serverPackage.devDependencies)];
  return names.filter((name) => !name.startsWith('@switchboard/') && !bundledPackages.has(name)).flatMap((name) => [name, `${name}/*`]);
}

/**
 * Builds the bundle into `outdir` (the server's `dist/` by default). Files are written in place, and
 * only then are the previous build's leftovers removed: a chunk's name carries its content hash, so
 * a server already running from this folder still finds every chunk it may load later unless that
 * chunk's code changed.
 */
export async function buildServerBundle(outdir = serverDist): Promise<void> {
  // Imported here, not at the top: a production install without dev packages still runs a built bundle or the sources.
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    outExtension: { '.js': '.mjs' },
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    external: externalPackages(),
    plugins: [onlyEnglishZodMessages],
    // Whitespace and comments out, names kept: V8 holds every module's source text in the heap, and
    // one non-ASCII character in a comment would store the whole text at two bytes per character.
    minifyWhitespace: true,
    minifySyntax: true,
    charset: 'ascii',
    // Identifiers are not minified, so functions and classes keep their names in stack traces
    // without `keepNames`, whose helper call on every closure created cost about 1 % of relay CPU.
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    write: false,
  });
  mkdirSync(outdir, { recursive: true });
  const written = new Set<string>();
  for (const file of result.outputFiles) {
    written.add(basename(file.path));
    writeFileSync(file.path, file.contents);
  }
  for (const leftover of readdirSync(outdir)) if (!written.has(leftover)) rmSync(join(outdir, leftover), { force: true });
}
