// Lint rules for the whole repository (npm run lint; CI runs it). TypeScript's own checks run in `npm run typecheck`;
// this adds what the compiler does not see: React's hook rules, accessibility rules for JSX, likely mistakes, the
// import zones between folders, import cycles, undeclared dependencies and file names
// (docs/decisions/0011-lint.md, docs/decisions/0016-import-zones-formatter-type-provider.md).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import checkFile from 'eslint-plugin-check-file';
import { importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The workspaces whose imports must be declared in their own package.json (the root holds scripts, bench, e2e). */
const WORKSPACES = ['packages/contracts', 'server', 'web'];
/** Files that run only under the test runner or a build tool: they may import the root's devDependencies. */
const TOOLING_FILES = [
  '**/*.test.{ts,tsx}',
  '**/__tests__/**',
  '**/testing/**',
  '**/test/**',
  '**/*.config.{ts,js,mjs}',
  '**/build.mjs',
];

function subfolders(dir) {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

/**
 * Which folder may import which. Paths are relative to `root`; the feature and module lists are read from the tree,
 * so a new feature folder is fenced in without editing this file.
 */
function importZones(root) {
  const features = subfolders(path.join(root, 'web/src/features'));
  const modules = subfolders(path.join(root, 'server/src/modules'));
  const zone = (target, from, message, except) => ({ target, from, message, ...(except ? { except } : {}) });
  return [
    // Web: a feature is self-contained; what composes several features lives in app/.
    ...features.map((feature) =>
      zone(
        `web/src/features/${feature}`,
        'web/src/features',
        'A feature never imports another feature: move what both need to lib/ or compose them in app/.',
        [`./${feature}`],
      ),
    ),
    zone(
      'web/src/features',
      'web/src/app',
      'Features never import app/: app/ composes features, not the other way round.',
    ),
    zone(
      ['web/src/components', 'web/src/lib'],
      ['web/src/features', 'web/src/app'],
      'components/ and lib/ are shared building blocks: they never import features/ or app/.',
    ),
    zone(
      'web',
      ['server', 'cms'],
      'The web app never imports server or CMS code; shared names and shapes live in packages/contracts.',
    ),
    // Contracts are shared by everyone and depend on nobody.
    zone('packages/contracts', ['web', 'server', 'cms'], 'Contracts import nothing of web, server or cms.'),
    // Server: a module talks to another only through that module's declared service.
    ...modules.map((module) =>
      zone(
        `server/src/modules/${module}`,
        'server/src/modules',
        'A server module imports another module only through its service.ts.',
        [`./${module}`, ...modules.filter((other) => other !== module).map((other) => `./${other}/service.ts`)],
      ),
    ),
    // Server layers, top to bottom: modules → identity → platform → db (docs/architecture.md#server-layers).
    zone(
      'server/src/identity',
      ['server/src/modules', 'server/src/content'],
      'identity/ is below every feature: it never imports modules/ or content/.',
    ),
    zone(
      'server/src/platform',
      ['server/src/modules', 'server/src/content', 'server/src/identity'],
      'platform/ is plumbing below identity/ and every feature: it never imports modules/, identity/ or content/.',
    ),
    zone(
      'server/src/db',
      ['server/src/modules', 'server/src/content', 'server/src/identity'],
      'db/ is the bottom layer: it never imports modules/, identity/ or content/.',
    ),
    // db/'s table helpers take platform's database handle type and prepared statements, nothing else of platform/.
    zone('server/src/db', 'server/src/platform', 'db/ is below platform/: it imports only platform/db-executor.ts.', [
      './db-executor.ts',
    ]),
    zone('server/src/content', 'server/src/modules', 'content/ never imports modules/.'),
  ];
}

/** The whole configuration for a tree rooted at `root` (the lint-rule test runs it on a fixture tree). */
export function createConfig(root) {
  const tsProjects = [...WORKSPACES, 'e2e', 'tooling'].map((dir) => path.join(root, dir, 'tsconfig.json'));
  return defineConfig(
    {
      ignores: [
        '**/node_modules/',
        '**/dist/',
        '**/dist-ssr/',
        'data/',
        'coverage/',
        'cms/build/',
        'cms/.strapi/',
        'cms/.tmp/',
        'cms/public/',
        'cms/types/generated/',
        // Deliberately bad files that tooling/lint-rules.test.ts lints on purpose.
        'tooling/lint-fixtures/',
      ],
    },
    js.configs.recommended,
    ...tseslint.configs.recommended,
    {
      rules: {
        // `_`-prefixed names are deliberately unused (a callback's position, a destructured rest).
        '@typescript-eslint/no-unused-vars': [
          'error',
          { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
        ],
      },
    },
    {
      files: ['**/*.{ts,tsx,js,mjs,cjs}'],
      plugins: { 'import-x': importX, 'check-file': checkFile },
      settings: {
        // import-x reads TypeScript files (for no-cycle) only when told their extensions and parser.
        'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
        'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
        'import-x/resolver-next': [
          createTypeScriptImportResolver({ project: tsProjects, noWarnOnMultipleProjects: true }),
        ],
      },
      rules: {
        'import-x/no-restricted-paths': ['error', { basePath: root, zones: importZones(root) }],
        'import-x/no-cycle': ['error', { ignoreExternal: true }],
        // `foo.test.ts`, `vitest.config.ts` and `index.ts` are checked by their first part only.
        'check-file/filename-naming-convention': [
          'error',
          { '**/*.{ts,tsx,js,mjs,cjs}': 'KEBAB_CASE' },
          { ignoreMiddleExtensions: true },
        ],
      },
    },
    {
      // Every package a workspace's code imports is listed in that workspace's package.json, so a single-workspace
      // install or a container build cannot break silently. The nearest package.json decides.
      files: [
        ...WORKSPACES.map((ws) => `${ws}/**/*.{ts,tsx,js,mjs}`),
        '*.{ts,js,mjs}',
        'scripts/**',
        'bench/**',
        'e2e/**',
        'tooling/**',
      ],
      rules: {
        'import-x/no-extraneous-dependencies': [
          'error',
          { devDependencies: false, optionalDependencies: false, peerDependencies: false },
        ],
      },
    },
    ...WORKSPACES.map((ws) => ({
      // Tests and build configs run from the root (vitest, vite): they may also use the root's devDependencies.
      files: TOOLING_FILES.map((glob) => `${ws}/${glob}`),
      rules: {
        'import-x/no-extraneous-dependencies': [
          'error',
          { devDependencies: true, packageDir: [path.join(root, ws), root] },
        ],
      },
    })),
    {
      // The root's own files are tooling (scripts, benchmarks, browser tests): devDependencies are theirs to use.
      files: ['*.{ts,js,mjs}', 'scripts/**', 'bench/**', 'e2e/**', 'tooling/**'],
      rules: { 'import-x/no-extraneous-dependencies': ['error', { devDependencies: true, packageDir: root }] },
    },
    {
      // Run on servers from the built tree: Node's own modules only.
      files: ['deploy/**'],
      rules: { 'import-x/no-extraneous-dependencies': ['error', { devDependencies: false, packageDir: root }] },
    },
    {
      files: [
        'server/**',
        'packages/**',
        'scripts/**',
        'bench/**',
        'e2e/**',
        'cms/**',
        'tooling/**',
        'deploy/**',
        '*.config.*',
        '.ci/**',
      ],
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
      // (docs/decisions/0012-zod-mini-in-contracts.md). Tests may use either. The app renders its routes in React
      // Router's declarative mode (docs/decisions/0034-server-rendered-portal-pages.md): the data router's hooks and
      // components would throw there (the unit tests' memory router is a data router, so they would not see it).
      files: ['web/src/**/*.{ts,tsx}', 'packages/contracts/src/**/*.ts'],
      ignores: ['**/*.test.*', '**/__tests__/**', 'web/src/testing/**'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            paths: [
              { name: 'zod', message: "Import from 'zod/mini' in code the browser loads (decision 0012)." },
              {
                name: 'react-router',
                importNames: [
                  'createBrowserRouter',
                  'createMemoryRouter',
                  'RouterProvider',
                  'ScrollRestoration',
                  'useRouteError',
                  'useMatches',
                  'useNavigation',
                  'useBlocker',
                  'useFetcher',
                  'useLoaderData',
                  'useActionData',
                  'Form',
                ],
                message: 'The routes render in declarative mode, without the data router (decision 0034).',
              },
            ],
          },
        ],
      },
    },
  );
}

export default createConfig(import.meta.dirname);
