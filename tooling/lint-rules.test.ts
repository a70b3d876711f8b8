import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ESLint } from 'eslint';
import * as prettier from 'prettier';
import { beforeAll, describe, expect, it } from 'vitest';
import { createConfig } from '../eslint.config.js';

// `npm run lint` must fail on each kind of mistake below. The fixture tree mirrors the repository's layout and is
// linted with the repository's own configuration (createConfig), so a rule that stops firing fails here.
const repoRoot = path.resolve(import.meta.dirname, '..');
const fixtureRoot = path.join(import.meta.dirname, 'lint-fixtures');

type Findings = Map<string, { ruleId: string | null; message: string }[]>;
let findings: Findings;

/** Rule ids reported for one fixture file (path relative to the fixture root). */
function rulesIn(file: string): (string | null)[] {
  const messages = findings.get(file);
  if (!messages) throw new Error(`${file} was not linted`);
  return messages.map((m) => m.ruleId);
}

beforeAll(async () => {
  const eslint = new ESLint({ cwd: fixtureRoot, overrideConfigFile: true, overrideConfig: createConfig(fixtureRoot) });
  const results = await eslint.lintFiles(['web/src/**/*.ts', 'server/src/**/*.ts']);
  findings = new Map(
    results.map((r) => [
      path.relative(fixtureRoot, r.filePath),
      r.messages.map(({ ruleId, message }) => ({ ruleId, message })),
    ]),
  );
}, 60_000);

describe('ESLint rules fire on deliberately bad files', () => {
  it('a web feature importing another feature', () => {
    expect(rulesIn('web/src/features/alpha/alpha-panel.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('lib/ importing a feature', () => {
    expect(rulesIn('web/src/lib/uses-feature.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('an import cycle, reported on both files', () => {
    expect(rulesIn('web/src/lib/cycle-first.ts')).toEqual(['import-x/no-cycle']);
    expect(rulesIn('web/src/lib/cycle-second.ts')).toEqual(['import-x/no-cycle']);
  });

  it('a package the workspace does not declare', () => {
    expect(rulesIn('web/src/lib/undeclared-dependency.ts')).toEqual(['import-x/no-extraneous-dependencies']);
  });

  it('a file name that is not kebab-case', () => {
    expect(rulesIn('web/src/lib/RegionLabel.ts')).toEqual(['check-file/filename-naming-convention']);
  });

  it("a server module importing another module's internals, but not its service.ts", () => {
    const messages = findings.get('server/src/modules/alpha/routes.ts') ?? [];
    expect(messages.map((m) => m.ruleId)).toEqual(['import-x/no-restricted-paths']);
    expect(messages[0]?.message).toContain('../beta/internal');
  });

  // The server's layers, top to bottom: modules → identity → platform → db. Each upward import fails.
  it('platform/ importing a server module', () => {
    expect(rulesIn('server/src/platform/uses-module.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('identity/ importing a server module, even its service.ts', () => {
    expect(rulesIn('server/src/identity/uses-module.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('platform/ importing identity/', () => {
    expect(rulesIn('server/src/platform/uses-identity.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('db/ importing a server module or identity/', () => {
    expect(rulesIn('server/src/db/uses-module.ts')).toEqual(['import-x/no-restricted-paths']);
    expect(rulesIn('server/src/db/uses-identity.ts')).toEqual(['import-x/no-restricted-paths']);
  });

  it('db/ importing platform/, but not its db-executor.ts', () => {
    const messages = findings.get('server/src/db/uses-platform.ts') ?? [];
    expect(messages.map((m) => m.ruleId)).toEqual(['import-x/no-restricted-paths']);
    expect(messages[0]?.message).toContain('../platform/plumbing');
  });

  it('a good file passes: declared dependency, sibling import, kebab-case name', () => {
    expect(rulesIn('web/src/lib/good-module.ts')).toEqual([]);
    expect(rulesIn('web/src/features/beta/beta-title.ts')).toEqual([]);
    expect(rulesIn('server/src/modules/beta/service.ts')).toEqual([]);
    // Each layer on top of the one below: a module on identity/, identity/ on platform/, platform/ on db/.
    expect(rulesIn('server/src/modules/beta/account.ts')).toEqual([]);
    expect(rulesIn('server/src/identity/account-rule.ts')).toEqual([]);
    expect(rulesIn('server/src/platform/plumbing.ts')).toEqual([]);
    expect(rulesIn('server/src/db/tables.ts')).toEqual([]);
  });
});

describe('Prettier check', () => {
  async function isFormatted(file: string) {
    const options = await prettier.resolveConfig(path.join(repoRoot, 'package.json'));
    return prettier.check(await readFile(file, 'utf8'), { ...options, filepath: file });
  }

  it('fails on an unformatted file and passes a formatted one, with the repository settings', async () => {
    expect(await isFormatted(path.join(fixtureRoot, 'unformatted.ts'))).toBe(false);
    expect(await isFormatted(path.join(fixtureRoot, 'web/src/lib/good-module.ts'))).toBe(true);
  });
});

describe('the fixtures stay out of the normal lint', () => {
  it('ESLint and Prettier both ignore them', async () => {
    const fixture = path.join(fixtureRoot, 'unformatted.ts');
    expect(await new ESLint({ cwd: repoRoot }).isPathIgnored(fixture)).toBe(true);
    const info = await prettier.getFileInfo(fixture, { ignorePath: path.join(repoRoot, '.prettierignore') });
    expect(info.ignored).toBe(true);
  });
});
