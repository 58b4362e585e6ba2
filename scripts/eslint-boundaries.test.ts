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

  /** The import specifiers `no-restricted-imports` refuses in `code` linted as `file`. */
  async function refused(file: string, imports: readonly string[]): Promise<string[]> {
    const code = imports.map((specifier, index) => `import * as imported${index} from '${specifier}';\nexport { imported${index} };\n`).join('');
    const [result] = await eslint.lintText(code, { filePath: `${root}/${file}` });
    const lines = (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.line);
    return imports.filter((_, index) => lines.includes(index * 2 + 1));
  }

  it('keeps the query builder in repositories and db/', async () => {
    expect(await refused(`${server}/api/token/token.service.ts`, ['kysely'])).toEqual(['kysely']);
    expect(await refused(`${server}/api/token/token-view.ts`, ['kysely'])).toEqual(['kysely']);
    expect(await refused(`${server}/api/operations-jobs.ts`, ['kysely'])).toEqual(['kysely']);
    expect(await refused(`${server}/relay/channel-health/channel-test.service.ts`, ['kysely'])).toEqual(['kysely']);
    expect(await refused(`${server}/api/token/token.repository.ts`, ['kysely'])).toEqual([]);
    expect(await refused(`${server}/db/in-transaction.ts`, ['kysely'])).toEqual([]);
    expect(await refused(`${server}/platform/database.ts`, ['kysely'])).toEqual([]);
    // Tests may build their own queries to check what the code wrote.
    expect(await refused(`${server}/api/token/token.test.ts`, ['kysely'])).toEqual([]);
  });

  it('keeps test-only helpers out of production code', async () => {
    expect(await refused(`${server}/api/wallet/wallet-module.ts`, ['../../testing/test-app.ts', './testing/fake-epay.ts'])).toEqual([
      '../../testing/test-app.ts',
      './testing/fake-epay.ts',
    ]);
    expect(await refused(`${server}/api/wallet/wallet.repository.ts`, ['./testing/fake-epay.ts'])).toEqual(['./testing/fake-epay.ts']);
    expect(await refused(`${server}/api/wallet/wallet.test.ts`, ['./testing/fake-epay.ts', '../../testing/test-app.ts'])).toEqual([]);
    expect(await refused(`${server}/relay/providers/claude/testing/native-relay.ts`, ['./fake-server.ts', '../../../testing/test-app.ts'])).toEqual([]);
  });

  it('keeps the providers and the API boundaries alongside the new ones', async () => {
    expect(await refused(`${server}/relay/providers/claude/index.ts`, ['../../../db/schema.ts', 'kysely', './testing/fake-server.ts'])).toEqual([
      '../../../db/schema.ts',
      'kysely',
      './testing/fake-server.ts',
    ]);
    expect(await refused(`${server}/relay/providers/claude/claude.test.ts`, ['../../../api/token/token.service.ts', 'kysely'])).toEqual([
      '../../../api/token/token.service.ts',
    ]);
    expect(await refused(`${server}/api/channel/channel.service.ts`, ['../../relay/providers/claude/index.ts', 'kysely'])).toEqual([
      '../../relay/providers/claude/index.ts',
      'kysely',
    ]);
    expect(await refused(`${server}/api/channel/channel.repository.ts`, ['../../relay/providers/claude/index.ts', 'kysely'])).toEqual([
      '../../relay/providers/claude/index.ts',
    ]);
    expect(await refused(`${server}/api/channel/channel.test.ts`, ['../../relay/providers/claude/index.ts', 'kysely'])).toEqual([
      '../../relay/providers/claude/index.ts',
    ]);
  });
});
