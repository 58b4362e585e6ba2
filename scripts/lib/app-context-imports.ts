import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { serverProductionFiles } from './server-production-files.ts';

/**
 * Issue 39: services are given what they use, never the whole application context. Only the
 * composition at the src root takes `AppContext` (app-context.ts): `app.ts` builds it, `compose-relay.ts`
 * wires the relay from it, and the process files around them. Every other production file names the
 * members it uses (a `<Module>Dependencies` interface, a parameter per service). Tests and `testing/`
 * folders may use it: they build the whole app to test one module.
 */
export const compositionFiles: readonly string[] = ['app.ts', 'app-context.ts', 'compose-relay.ts', 'open-dependencies.ts', 'serve-process.ts', 'main.ts'];

/** Every quoted module specifier naming app-context: `import type … from`, `export … from`, `import('…')` in a type. */
const appContextSpecifier = /['"`](\.{1,2}\/(?:[^'"`\n]*\/)?app-context(?:\.ts|\.js)?)['"`]/g;

/** The production files outside the composition that import `app-context.ts`, as `file -> specifier`, relative to `srcRoot`. */
export function appContextImports(srcRoot: string): string[] {
  const appContext = join(srcRoot, 'app-context.ts');
  const found: string[] = [];
  for (const file of serverProductionFiles(srcRoot)) {
    const name = relative(srcRoot, file);
    if (compositionFiles.includes(name)) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(appContextSpecifier)) {
      const target = resolve(dirname(file), match[1]!).replace(/\.js$/, '.ts');
      if (target === appContext || `${target}.ts` === appContext) found.push(`${name.split(sep).join('/')} -> ${match[1]!}`);
    }
  }
  return found;
}
