import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrationsFolder, openPglite, openPostgres } from '../src/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplateDir: string;
    postgresTemplate: { url: string; database: string } | null;
  }
}

/** A hash of the committed migrations names the template, so a schema change builds a fresh one. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder).sort())
    if (file.endsWith('.sql')) hash.update(readFileSync(join(migrationsFolder, file)));
  return hash.digest('hex').slice(0, 12);
}

/**
 * Initialising PGlite costs ~4 s, so the schema is migrated once into a template folder that each test file
 * copies (docs/requirements/platform.md#testing-rules). With TEST_DATABASE_URL, a migrated template database on the real server plays that role.
 */
export default async function setup(project: TestProject) {
  const hash = migrationsHash();
  const templateDir = join(tmpdir(), `portal-pglite-template-${hash}`);
  if (!existsSync(join(templateDir, '.complete'))) {
    rmSync(templateDir, { recursive: true, force: true });
    mkdirSync(templateDir, { recursive: true });
    const db = await openPglite(templateDir);
    await db.migrate();
    await db.close();
    writeFileSync(join(templateDir, '.complete'), hash);
  }
  project.provide('pgliteTemplateDir', templateDir);

  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    project.provide('postgresTemplate', null);
    console.warn(
      '[server tests] TEST_DATABASE_URL is not set: the suite runs on embedded PGlite only; the PostgreSQL run was SKIPPED.',
    );
    return;
  }
  const database = `portal_test_template_${hash}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${database}`);
    await admin.query(`create database ${database}`);
  } finally {
    await admin.end();
  }
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${database}`;
  const handle = openPostgres(templateUrl.toString(), 1);
  await handle.migrate();
  await handle.close();
  project.provide('postgresTemplate', { url, database });
  console.log(`[server tests] running against PostgreSQL (${templateUrl.host}) from template ${database}`);
}
