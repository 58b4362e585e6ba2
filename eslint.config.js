import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * One lint setup for the repository, with the cheap-to-enforce boundaries of the house rules:
 * only config/ reads the environment, only the safe helper parses JSON, providers stay away from the
 * database and the API, the API stays away from provider internals, web features are islands.
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
      'no-restricted-syntax': ['error', { selector: "CallExpression[callee.object.name='JSON'][callee.property.name='parse']", message: 'Use safeParseJson from platform/safe-json.ts.' }],
    },
  },
  {
    files: ['packages/server/src/config/**/*.ts', 'packages/server/src/main.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['packages/server/src/relay/providers/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/api/**', '**/db/**', '**/billing/**'], message: 'Providers are pure converters and transports: no database, API or billing imports.' }] }],
    },
  },
  {
    files: ['packages/server/src/api/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/relay/providers/*/**'], message: 'The console API must not reach into provider internals; use the relay registry.' }] }],
    },
  },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [{ group: ['../../features/*', '../features/*', '@/features/*'], message: 'Features are islands: compose them in app/, do not import one from another.' }] }],
    },
  },
);
