import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const server = 'packages/server/src';

/**
 * The import boundaries of eslint.config.js, checked on snippets linted as if they were the named
 * files: flat-config blocks replace each other's `no-restricted-imports`, so each area must keep the
 * restrictions of the wider ones.
 */
describe('import boundaries', () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({ cwd: root });
  });

  /** The import specifiers `rule` refuses in `code` linted as `file` (`import type` when `typeOnly`). */
  async function refusedBy(rule: string, file: string, imports: readonly string[], typeOnly = false): Promise<string[]> {
    const code = imports
      .map((specifier, index) =>
        typeOnly
          ? `import type * as imported${index} from '${specifier}';\nexport type { imported${index} };\n`
          : `import * as imported${index} from '${specifier}';\nexport { imported${index} };\n`,
      )
      .join('');
    const [result] = await eslint.lintText(code, { filePath: `${root}/${file}` });
    const lines = (result?.messages ?? []).filter((message) => message.ruleId === rule).map((message) => message.line);
    return imports.filter((_, index) => lines.includes(index * 2 + 1));
  }

  /** The boundaries of the house rules (query builder, test helpers, providers, console API). */
  function refused(file: string, imports: readonly string[]): Promise<string[]> {
    return refusedBy('no-restricted-imports', file, imports);
  }

  /** The layers: core/ < domain/ < entry/ < the composition files. */
  function refusedByLayers(file: string, imports: readonly string[], typeOnly = false): Promise<string[]> {
    return refusedBy('@typescript-eslint/no-restricted-imports', file, imports, typeOnly);
  }

  it('keeps the query builder in repositories and db/', async () => {
    expect(await refused(`${server}/entry/api/token/token.service.ts`, ['kysely'])).toEqual(['kysely']);
    expect(await refused(`${server}/entry/api/token/token-view.ts`, ['kysely'])).toEqual(['kysely']);
    expect(await refused(`${server}/entry/api/operations-jobs.ts`, ['kysely'])).toEqual(['kysely']);
    expect(await refused(`${server}/entry/relay/channel-health/channel-test.service.ts`, ['kysely'])).toEqual(['kysely']);
    expect(await refused(`${server}/entry/api/token/token.repository.ts`, ['kysely'])).toEqual([]);
    expect(await refused(`${server}/core/db/in-transaction.ts`, ['kysely'])).toEqual([]);
    expect(await refused(`${server}/core/platform/database.ts`, ['kysely'])).toEqual([]);
    // Tests may build their own queries to check what the code wrote.
    expect(await refused(`${server}/entry/api/token/token.test.ts`, ['kysely'])).toEqual([]);
  });

  it('keeps test-only helpers out of production code', async () => {
    expect(await refused(`${server}/entry/api/wallet/wallet-module.ts`, ['../../../testing/test-app.ts', './testing/fake-epay.ts'])).toEqual([
      '../../../testing/test-app.ts',
      './testing/fake-epay.ts',
    ]);
    expect(await refused(`${server}/entry/api/wallet/wallet.repository.ts`, ['./testing/fake-epay.ts'])).toEqual(['./testing/fake-epay.ts']);
    expect(await refused(`${server}/entry/api/wallet/wallet.test.ts`, ['./testing/fake-epay.ts', '../../../testing/test-app.ts'])).toEqual([]);
    expect(await refused(`${server}/entry/relay/providers/claude/testing/native-relay.ts`, ['./fake-server.ts', '../../../../../testing/test-app.ts'])).toEqual(
      [],
    );
  });

  it('keeps the providers and the API boundaries alongside the new ones', async () => {
    expect(await refused(`${server}/entry/relay/providers/claude/index.ts`, ['../../../../core/db/schema.ts', 'kysely', './testing/fake-server.ts'])).toEqual([
      '../../../../core/db/schema.ts',
      'kysely',
      './testing/fake-server.ts',
    ]);
    expect(await refused(`${server}/entry/relay/providers/claude/claude.test.ts`, ['../../../api/token/token.service.ts', 'kysely'])).toEqual([
      '../../../api/token/token.service.ts',
    ]);
    expect(await refused(`${server}/entry/api/channel/channel.service.ts`, ['../../relay/providers/claude/index.ts', 'kysely'])).toEqual([
      '../../relay/providers/claude/index.ts',
      'kysely',
    ]);
    expect(await refused(`${server}/entry/api/channel/channel.repository.ts`, ['../../relay/providers/claude/index.ts', 'kysely'])).toEqual([
      '../../relay/providers/claude/index.ts',
    ]);
    expect(await refused(`${server}/entry/api/channel/channel.test.ts`, ['../../relay/providers/claude/index.ts', 'kysely'])).toEqual([
      '../../relay/providers/claude/index.ts',
    ]);
  });

  it('keeps core/ below domain/, entry/ and the composition', async () => {
    const file = `${server}/core/platform/metrics.ts`;
    const above = ['../../domain/cluster/primary-link.ts', '../../entry/relay/relay-module.ts', '../../app.ts', '../../open-dependencies.ts'];
    expect(await refusedByLayers(file, [...above, './logger.ts', '../http/app-error.ts'])).toEqual(above);
    // Types may reach up (the context types of the composition); tests may build the whole app.
    expect(await refusedByLayers(file, ['../../domain/options/option-store.ts', '../../app-context.ts'], true)).toEqual([]);
    expect(await refusedByLayers(`${server}/core/platform/metrics.test.ts`, ['../../testing/test-app.ts', '../../entry/relay/relay-module.ts'])).toEqual([]);
  });

  it('keeps domain/ below entry/ and the composition', async () => {
    const file = `${server}/domain/budgets/budget.service.ts`;
    const above = ['../../entry/api/user/role-rules.ts', '../../entry/relay/relay-services.ts', '../../app.ts'];
    expect(await refusedByLayers(file, [...above, '../auth/outranks.ts', '../../core/http/app-error.ts', './budget-book.ts'])).toEqual(above);
    expect(await refusedByLayers(file, ['../../entry/relay/relay-services.ts'], true)).toEqual([]);
  });

  it('keeps entry/ below the composition, free to use every layer under it', async () => {
    const file = `${server}/entry/relay/relay-module.ts`;
    expect(await refusedByLayers(file, ['../../app.ts', '../../serve-process.ts', '../../main.ts', '../../open-dependencies.ts'])).toEqual([
      '../../app.ts',
      '../../serve-process.ts',
      '../../main.ts',
      '../../open-dependencies.ts',
    ]);
    expect(await refusedByLayers(file, ['../tasks/task-module.ts', '../../domain/budgets/budget-module.ts', '../../core/platform/random.ts'])).toEqual([]);
    // The composition at the root imports every layer.
    expect(await refusedByLayers(`${server}/app.ts`, ['./entry/relay/relay-module.ts', './domain/cluster/primary-link.ts'])).toEqual([]);
  });
});
