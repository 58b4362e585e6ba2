import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Test files and test-only helpers of the server (each `testing/` folder). */
const serverTestFiles = ['packages/server/src/**/*.test.ts', 'packages/server/src/**/testing/**'];

/** Where the query builder may be imported: repositories, db/, and the platform files that open connections. */
const queryHomes = [
  'packages/server/src/**/*.repository.ts',
  'packages/server/src/core/db/**',
  'packages/server/src/core/platform/database.ts',
  'packages/server/src/open-dependencies.ts',
  'packages/server/src/core/platform/sqlite-batch-worker*.ts',
];

/** The import boundaries, each a `no-restricted-imports` pattern. */
const boundaries = {
  providersArePure: {
    group: ['**/api/**', '**/db/**', '**/billing/**'],
    message: 'Providers are pure converters and transports: no database, API or billing imports.',
  },
  apiAvoidsProviderInternals: {
    group: ['**/relay/providers/*/**'],
    message: 'The console API must not reach into provider internals; use the relay registry.',
  },
  queriesInRepositories: {
    group: ['kysely', 'kysely/*'],
    message:
      'SQL lives in repositories (*.repository.ts) and db/: call a repository, and take row types from db/schema.ts (the log tables’ from db/log-schema.ts).',
  },
  noTestHelpers: { group: ['**/testing/**', './testing/**'], message: 'Test-only helpers (testing/ folders) are for tests, never for production code.' },
};

/**
 * The server's layers (docs/architecture.md): core/ (infrastructure) < domain/ < entry/ < the
 * composition files at the src root. A layer imports only from the layers below it and its own;
 * type-only imports are allowed (budgets/ names the relay's services), but none of the composition's
 * AppContext outside the composition (scripts/app-context-imports.test.ts). Each is one
 * `@typescript-eslint/no-restricted-imports` rule, a rule apart from the boundaries above so the two
 * never replace each other; scripts/server-folder-graph.test.ts also fails on any folder cycle.
 */
const composition = ['**/app.ts', '**/app-context.ts', '**/compose-relay.ts', '**/open-dependencies.ts', '**/serve-process.ts', '**/main.ts'];
const layerRules = {
  core: {
    group: ['**/domain/**', '**/entry/**', ...composition],
    message: 'core/ is infrastructure: it imports no domain/ or entry/ module and no composition file; take what you need as a parameter.',
  },
  domain: {
    group: ['**/entry/**', ...composition],
    message: 'domain/ imports only core/ and domain/: move what an entry point and a domain module share down, or pass it in.',
  },
  entry: {
    group: composition,
    message: 'entry/ is composed by app.ts, never the other way round: take what you need as a parameter.',
  },
};

function layerRule(rule) {
  return { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ ...rule, allowTypeImports: true }] }] };
}

/**
 * One `no-restricted-imports` entry with every boundary of a file's areas. Flat-config rule entries
 * replace each other per file, so a block for an area must repeat the boundaries of the wider areas.
 */
function restrictImports(...patterns) {
  return { 'no-restricted-imports': ['error', { patterns }] };
}

/**
 * One lint setup for the repository, with the cheap-to-enforce boundaries of the house rules:
 * only config/ reads the environment, only the safe helper parses JSON, SQL stays in repositories,
 * production code never imports test helpers, providers stay away from the database and the API,
 * the API stays away from provider internals, web features are islands.
 */
export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'test-artifacts/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'max-lines': ['warn', { max: 500, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['packages/server/src/**/*.ts'],
    ignores: ['packages/server/src/**/*.test.ts', 'packages/server/src/testing/**'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration in config/ only.' }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='JSON'][callee.property.name='parse']", message: 'Use safeParseJson from platform/safe-json.ts.' },
      ],
    },
  },
  {
    files: ['packages/server/src/core/config/**/*.ts', 'packages/server/src/main.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  // Server production code: no query builder outside its homes, no test helpers.
  {
    files: ['packages/server/src/**/*.ts'],
    ignores: [...serverTestFiles, ...queryHomes],
    rules: restrictImports(boundaries.queriesInRepositories, boundaries.noTestHelpers),
  },
  {
    files: [...queryHomes],
    ignores: serverTestFiles,
    rules: restrictImports(boundaries.noTestHelpers),
  },
  // Providers (no repositories among them): their boundary everywhere, plus the production ones outside tests.
  {
    files: ['packages/server/src/entry/relay/providers/**/*.ts'],
    rules: restrictImports(boundaries.providersArePure),
  },
  {
    files: ['packages/server/src/entry/relay/providers/**/*.ts'],
    ignores: serverTestFiles,
    rules: restrictImports(boundaries.providersArePure, boundaries.queriesInRepositories, boundaries.noTestHelpers),
  },
  // The console API: its boundary everywhere, plus the production ones (its repositories may build queries).
  {
    files: ['packages/server/src/entry/api/**/*.ts'],
    rules: restrictImports(boundaries.apiAvoidsProviderInternals),
  },
  {
    files: ['packages/server/src/entry/api/**/*.ts'],
    ignores: [...serverTestFiles, ...queryHomes],
    rules: restrictImports(boundaries.apiAvoidsProviderInternals, boundaries.queriesInRepositories, boundaries.noTestHelpers),
  },
  {
    files: ['packages/server/src/entry/api/**/*.repository.ts'],
    rules: restrictImports(boundaries.apiAvoidsProviderInternals, boundaries.noTestHelpers),
  },
  // The layers, production code only (a test may build the whole app to test one module).
  { files: ['packages/server/src/core/**/*.ts'], ignores: serverTestFiles, rules: layerRule(layerRules.core) },
  { files: ['packages/server/src/domain/**/*.ts'], ignores: serverTestFiles, rules: layerRule(layerRules.domain) },
  { files: ['packages/server/src/entry/**/*.ts'], ignores: serverTestFiles, rules: layerRule(layerRules.entry) },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../features/*', '../features/*', '@/features/*'],
              message: 'Features are islands: compose them in app/, do not import one from another.',
            },
          ],
        },
      ],
    },
  },
);
