import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('loadConfig', () => {
  it('works with no settings at all (laptop defaults)', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/\/data$/);
    expect(config.cms.preview).toBe(false);
  });

  it('names the variable and the bad value in one readable line', () => {
    expect(problemsOf({ PORT: 'abc' })).toEqual(['PORT must be a port number (got "abc")']);
    expect(problemsOf({ PORT: '70000' })).toEqual(['PORT must be between 0 and 65535 (got "70000")']);
    expect(problemsOf({ CONTENT_PREVIEW: 'maybe' })).toEqual(['CONTENT_PREVIEW must be true or false (got "maybe")']);
  });

  it('lists every bad setting, not only the first', () => {
    expect(problemsOf({ PORT: 'x', LOG_LEVEL: 'loud', PUBLIC_URL: 'not a url' })).toHaveLength(3);
  });

  it('never echoes a secret value in its message', () => {
    const [problem] = problemsOf({ DATABASE_URL: 'mysql://user:hunter2@db/x' });
    expect(problem).toMatch(/^DATABASE_URL must be a postgres/);
    expect(problem).not.toContain('hunter2');
  });

  it('requires the secrets from the environment in production', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      'SESSION_SECRET is required when NODE_ENV=production',
      'ENCRYPTION_KEY is required when NODE_ENV=production',
    ]);
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig({ PORT: '' }).port).toBe(3000);
  });
});

describe('.env.example', () => {
  it('lists every setting the server reads, and nothing else', async () => {
    const { readFileSync } = await import('node:fs');
    const { EnvSchema, repoRoot } = await import('./config');
    const listed = readFileSync(`${repoRoot}/.env.example`, 'utf8')
      .split('\n')
      .map((line) => /^([A-Z_]+)=/.exec(line)?.[1])
      .filter(Boolean);
    expect(listed.sort()).toEqual(Object.keys(EnvSchema.shape).sort());
  });
});
