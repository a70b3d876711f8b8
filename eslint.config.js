// Lint rules for the whole repository (npm run lint; CI runs it). TypeScript's own checks run in `npm run typecheck`;
// this adds what the compiler does not see: React's hook rules, accessibility rules for JSX, and likely mistakes.
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/', '**/dist/', 'data/', 'coverage/', 'cms/build/', 'cms/.strapi/', 'cms/.tmp/', 'cms/public/', 'cms/types/generated/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // `_`-prefixed names are deliberately unused (a callback's position, a destructured rest).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['server/**', 'packages/**', 'scripts/**', 'bench/**', 'e2e/**', 'cms/**', '*.config.*', '.ci/**'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['cms/**/*.js'],
    // Strapi's project files are CommonJS.
    languageOptions: { sourceType: 'commonjs' },
    // `const crypto = require('node:crypto')` is the usual spelling, though Node also has a global `crypto`.
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-redeclare': ['error', { builtinGlobals: false }] },
  },
  {
    files: ['cms/scripts/**/*.mjs'],
    languageOptions: { sourceType: 'module' },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['web/**/*.tsx'],
    ...jsxA11y.flatConfigs.strict,
  },
  {
    // Code that reaches the browser uses zod/mini: classic zod would put the whole library in the bundle
    // (docs/decisions/0012-zod-mini-in-contracts.md). Tests may use either.
    files: ['web/src/**/*.{ts,tsx}', 'packages/contracts/src/**/*.ts'],
    ignores: ['**/*.test.*', '**/__tests__/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: 'zod', message: "Import from 'zod/mini' in code the browser loads (decision 0012)." }] }] },
  },
);
