import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every server module is a thin `routes.ts` over service code that never sees HTTP (docs/architecture.md#server-modules,
 * issue 20): the acceptance check of the services refactor. Lists every offender, so one run shows all that is left.
 */

const MODULES = fileURLToPath(new URL('../src/modules', import.meta.url));

/**
 * Modules whose only flow is HTTP itself, with the reason: they need no service. None today — a module is added here
 * only with a reason a reviewer accepts (docs/architecture.md#server-modules).
 */
const HTTP_ONLY: Record<string, string> = {};

/** Service code: every TypeScript file of a module but its routes, its tests and its command-line tools. */
function serviceFiles(folder: string): string[] {
  return readdirSync(join(MODULES, folder)).filter(
    (name) => name.endsWith('.ts') && name !== 'routes.ts' && !name.endsWith('.test.ts') && !name.endsWith('-cli.ts'),
  );
}

/** The module's own files its routes.ts imports (`./provider-validation`, `./service`…). */
function importedByRoutes(folder: string): string[] {
  const source = readFileSync(join(MODULES, folder, 'routes.ts'), 'utf8');
  return [...source.matchAll(/from '\.\/([\w.-]+?)(?:\.ts)?'/g)].map((match) => `${match[1]}.ts`);
}

function moduleLayoutOffenders(): string[] {
  const offenders: string[] = [];
  const folders = readdirSync(MODULES, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  for (const { name: folder } of folders) {
    if (!existsSync(join(MODULES, folder, 'routes.ts'))) {
      offenders.push(`${folder}: no routes.ts`);
      continue;
    }
    const services = serviceFiles(folder);
    if (!(folder in HTTP_ONLY) && !importedByRoutes(folder).some((file) => services.includes(file)))
      offenders.push(`${folder}: routes.ts calls no service of the module`);
    for (const file of services) {
      const source = readFileSync(join(MODULES, folder, file), 'utf8');
      const http = source.match(/\bFastify(?:Request|Reply)\b/);
      if (http) offenders.push(`${folder}/${file}: mentions ${http[0]} (a service takes a ServiceContext)`);
    }
  }
  return offenders;
}

describe('server modules (docs/architecture.md#server-modules)', () => {
  it('each has routes.ts over service code that takes no FastifyRequest or FastifyReply', () => {
    expect(moduleLayoutOffenders()).toEqual([]);
  });
});
