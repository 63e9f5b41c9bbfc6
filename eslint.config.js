import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { layerConfigs } from './lint/layers.js';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'e2e/.artifacts/**', 'packages/matcher/wasm/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['apps/web/vite.config.ts'], defaultProject: 'apps/web/tsconfig.node.json' },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Scripts (.js, .mjs) are linted too, without type information (no tsconfig holds them).
    files: ['**/*.{js,mjs}'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { ...globals.node },
    },
  },
  {
    // Service workers run in the worker scope, not Node.
    files: ['apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    // Playwright fixtures must destructure their dependencies, even when there are none: `async ({}, use) => …`.
    files: ['e2e/**/*.ts'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    // Tests wait on the event they stand for (a locator assertion, expect.poll, waitForResponse, the page's clock),
    // never on a fixed time: a sleep long enough on this machine is too short on a busier one (issue 38).
    files: ['e2e/**/*.ts', '**/test/**/*.{ts,tsx}', '**/*.{test,spec}.{ts,tsx}', 'apps/server/hostile/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          property: 'waitForTimeout',
          message: 'Wait for what the delay stands for: a locator assertion, expect.poll, page.waitForResponse, or page.clock.',
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Classic zod cannot be tree-shaken: imported by a schema of the first screen it costs every page that talks to
    // the API about 15 KB of gzip JavaScript (decision 046). The contract and the web app build schemas with zod/mini.
    files: ['packages/contract/src/**/*.ts', 'apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'zod', message: 'Use zod/mini here (decision 046): classic zod is not tree-shaken.' }] }],
    },
  },
  ...layerConfigs(),
);
