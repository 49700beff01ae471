import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// A focused or skipped test passes while proving nothing, so none may be committed: vitest's
// `.only`/`.skip` (and `x…`/`f…` aliases) here, node:test's `.only`/`.skip`/`{ only: true }` in
// end2end/. vitest.allowOnly is off as well, for `.only` that slips past the linter.
const TEST_FUNCTIONS = '/^(test|it|describe|suite)$/';
const FOCUS_OR_SKIP = '/^(only|skip|skipIf|runIf|todo)$/';
const MESSAGE = 'No focused or skipped tests: a test that does not run proves nothing.';
const noFocusedOrSkippedTests = {
  'no-restricted-syntax': [
    'error',
    { selector: `MemberExpression[object.name=${TEST_FUNCTIONS}][property.name=${FOCUS_OR_SKIP}]`, message: MESSAGE },
    { selector: 'CallExpression[callee.name=/^(xit|xtest|xdescribe|fit|ftest|fdescribe)$/]', message: MESSAGE },
    {
      // node:test: test('…', { only: true }, fn)
      selector: `CallExpression[callee.name=${TEST_FUNCTIONS}] > ObjectExpression > Property[key.name=${FOCUS_OR_SKIP}]`,
      message: MESSAGE,
    },
    {
      // node:test: t.skip() / t.todo() inside a test
      selector: 'CallExpression[callee.object.name="t"][callee.property.name=/^(skip|todo)$/]',
      message: MESSAGE,
    },
  ],
};

export default defineConfig([
  globalIgnores(['dist', 'node_modules', 'src/lib/openapi.d.ts']),
  {
    files: ['**/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [
      js.configs.recommended,
      tseslint.configs.recommendedTypeChecked,
      reactHooks.configs.flat.recommended,
    ],
    languageOptions: {
      globals: globals.browser,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.test.{ts,tsx}'],
    rules: noFocusedOrSkippedTests,
  },
  // The browser tests (end2end/, linted by `npm run lint:end2end` from the repository root).
  {
    files: ['end2end/**/*.mjs'],
    ignores: ['end2end/node_modules/**'],
    extends: [js.configs.recommended],
    // Node, and the browser inside page.evaluate() callbacks.
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ['end2end/**/*.test.mjs'],
    rules: noFocusedOrSkippedTests,
  },
]);
