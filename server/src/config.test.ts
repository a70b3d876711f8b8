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
    expect(config.cms.adminOrigin).toBe('http://localhost:1337');
  });

  it('names the variable and the bad value in one readable line', () => {
    expect(problemsOf({ PORT: 'abc' })).toEqual(['PORT must be a port number (got "abc")']);
    expect(problemsOf({ PORT: '70000' })).toEqual(['PORT must be between 0 and 65535 (got "70000")']);
    expect(problemsOf({ MAIL_VIEWER: 'maybe' })).toEqual(['MAIL_VIEWER must be true or false (got "maybe")']);
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

  const production = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32), ENCRYPTION_KEY: 'a'.repeat(64) };

  it('seeds demo data by default outside production only; an explicit true still seeds in production', () => {
    expect(loadConfig({}).seedDemoData).toBe(true);
    expect(loadConfig(production).seedDemoData).toBe(false);
    expect(loadConfig({ ...production, SEED_DEMO_DATA: 'true' }).seedDemoData).toBe(true);
    expect(loadConfig({ SEED_DEMO_DATA: 'false' }).seedDemoData).toBe(false);
  });

  it('reads TRUST_PROXY as false, true, or a list of addresses and CIDR ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8, loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      'loopback',
    ]);
    expect(loadConfig({ ...production, TRUST_PROXY: '10.1.2.3' }).trustProxy).toEqual(['10.1.2.3']);
  });

  it('refuses in production an SMTP_URL that does not require TLS, unless plain text is allowed explicitly', () => {
    const plain = 'smtp://portal:hunter2@mail.example.org:587';
    const tlsProblem =
      'SMTP_URL must require TLS: smtps://host:465, or smtp://host:587?requireTLS=true for STARTTLS, when ' +
      'NODE_ENV=production (or set SMTP_ALLOW_PLAINTEXT=true for a relay on this host)';
    // Opportunistic STARTTLS (what deploy/portal.env.example had), or STARTTLS ignored: refused, the password never echoed.
    expect(problemsOf({ ...production, SMTP_URL: plain })).toEqual([tlsProblem]);
    expect(problemsOf({ ...production, SMTP_URL: `${plain}?ignoreTLS=true` })).toEqual([tlsProblem]);
    expect(problemsOf({ ...production, SMTP_URL: `${plain}?requireTLS=false` })).toEqual([tlsProblem]);
    // TLS required, but the server's certificate not checked: refused too.
    expect(problemsOf({ ...production, SMTP_URL: 'smtps://mail.example.org?tls.rejectUnauthorized=false' })).toEqual([
      'SMTP_URL must not turn off the certificate check (tls.rejectUnauthorized=false) when NODE_ENV=production ' +
        '(or set SMTP_ALLOW_PLAINTEXT=true for a relay on this host)',
    ]);
    // Required TLS: implicit (smtps://) or STARTTLS required.
    expect(loadConfig({ ...production, SMTP_URL: 'smtps://portal:pw@mail.example.org:465' }).mail.smtpUrl).toBe(
      'smtps://portal:pw@mail.example.org:465',
    );
    expect(loadConfig({ ...production, SMTP_URL: `${plain}?requireTLS=true` }).mail.smtpUrl).toBe(
      `${plain}?requireTLS=true`,
    );
    // The explicit exception (a relay on the same host), and development, which keeps plain smtp://.
    expect(loadConfig({ ...production, SMTP_URL: plain, SMTP_ALLOW_PLAINTEXT: 'true' }).mail.allowPlaintext).toBe(true);
    expect(loadConfig({ SMTP_URL: plain }).mail.smtpUrl).toBe(plain);
  });

  it('refuses a TRUST_PROXY entry that is no address or range, and true in production', () => {
    expect(problemsOf({ TRUST_PROXY: '10.0.0.0/8,proxy.internal' })).toEqual([
      'TRUST_PROXY must be false or a comma-separated list of proxy addresses or CIDR ranges such as 10.0.0.0/8 (got "10.0.0.0/8,proxy.internal")',
    ]);
    expect(problemsOf({ TRUST_PROXY: '10.0.0.0/33' })).toHaveLength(1);
    expect(problemsOf({ ...production, TRUST_PROXY: 'true' })).toEqual([
      'TRUST_PROXY must list the proxies\' addresses or CIDR ranges when NODE_ENV=production, not true (got "true")',
    ]);
  });

  it('reads the request time-out and the optional integrity hashes of third-party scripts', () => {
    expect(loadConfig({}).requestTimeoutMs).toBe(15_000);
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '2000' }).requestTimeoutMs).toBe(2000);
    expect(problemsOf({ REQUEST_TIMEOUT_MS: '10' })).toHaveLength(1);
    const hash = 'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC';
    expect(loadConfig({ ANALYTICS_SCRIPT_INTEGRITY: hash }).thirdParty.analyticsScriptIntegrity).toBe(hash);
    expect(problemsOf({ CHAT_SCRIPT_INTEGRITY: 'md5-abc' })).toEqual([
      'CHAT_SCRIPT_INTEGRITY must be a Subresource Integrity value such as sha384-<base64 hash> (got "md5-abc")',
    ]);
  });

  it('puts the inactivity prompt point before the timeout: the prompt time must be shorter than SESSION_IDLE_MS', () => {
    expect(loadConfig({}).sessions).toMatchObject({ idleMs: 1_800_000, promptBeforeIdleMs: 900_000 });
    expect(problemsOf({ SESSION_IDLE_MS: '60000', SESSION_PROMPT_BEFORE_IDLE_MS: '60000' })).toEqual([
      'SESSION_PROMPT_BEFORE_IDLE_MS must be shorter than SESSION_IDLE_MS (got "60000")',
    ]);
    expect(
      loadConfig({ SESSION_IDLE_MS: '60000', SESSION_PROMPT_BEFORE_IDLE_MS: '50000' }).sessions.promptBeforeIdleMs,
    ).toBe(50_000);
  });

  it('has no password maximum age unless one is set, and refuses anything but a whole number of days', () => {
    expect(loadConfig({}).passwords.maxAgeDays).toBeUndefined();
    expect(loadConfig({ PASSWORD_MAX_AGE_DAYS: '' }).passwords.maxAgeDays).toBeUndefined();
    expect(loadConfig({ PASSWORD_MAX_AGE_DAYS: '90' }).passwords.maxAgeDays).toBe(90);
    const message = 'PASSWORD_MAX_AGE_DAYS must be a whole number of days from 1 to 3650, or empty for no maximum age';
    for (const bad of ['0', '-30', '1.5', 'ninety', '3651'])
      expect(problemsOf({ PASSWORD_MAX_AGE_DAYS: bad })).toEqual([message]);
  });

  it('reads the test-only clock file and job interval, and refuses both in production', () => {
    expect(loadConfig({}).testing).toEqual({ clockFile: undefined, jobIntervalMs: undefined });
    expect(loadConfig({ TEST_CLOCK_FILE: '/tmp/clock-offset', TEST_JOB_INTERVAL_MS: '2000' }).testing).toEqual({
      clockFile: '/tmp/clock-offset',
      jobIntervalMs: 2000,
    });
    expect(loadConfig({ TEST_CLOCK_FILE: 'data/clock' }).testing.clockFile).toMatch(/\/data\/clock$/);
    expect(problemsOf({ TEST_JOB_INTERVAL_MS: '10' })).toEqual([
      'TEST_JOB_INTERVAL_MS must be at least 100 (got "10")',
    ]);
    expect(problemsOf({ TEST_JOB_INTERVAL_MS: 'soon' })).toEqual([
      'TEST_JOB_INTERVAL_MS must be a number of milliseconds (got "soon")',
    ]);
    expect(problemsOf({ ...production, TEST_CLOCK_FILE: '/tmp/clock-offset', TEST_JOB_INTERVAL_MS: '2000' })).toEqual([
      'TEST_CLOCK_FILE is for tests only: not allowed when NODE_ENV=production (got "/tmp/clock-offset")',
      'TEST_JOB_INTERVAL_MS is for tests only: not allowed when NODE_ENV=production (got "2000")',
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

describe('docs/configuration.md', () => {
  it('describes every setting the server reads, and nothing else, each once', async () => {
    const { EnvSchema } = await import('./config');
    const { SETTING_GROUPS } = await import('./config-docs');
    const documented = SETTING_GROUPS.flatMap((group) => group.settings.flatMap((setting) => setting.names));
    expect([...documented].sort()).toEqual(Object.keys(EnvSchema.shape).sort());
    for (const setting of SETTING_GROUPS.flatMap((group) => group.settings)) {
      expect(setting.shown.trim(), setting.names.join()).not.toBe('');
      expect(setting.text.trim(), setting.names.join()).not.toBe('');
    }
  });

  it("quotes each setting's default as the schema has it", async () => {
    const { EnvSchema } = await import('./config');
    const { SETTING_GROUPS } = await import('./config-docs');
    const shape: Record<string, { safeParse(value: unknown): { success: boolean; data?: unknown } }> = EnvSchema.shape;
    for (const setting of SETTING_GROUPS.flatMap((group) => group.settings)) {
      // A default computed at start ("the number of cores") is shown in words, without backticks.
      if (!setting.shown.includes('`')) continue;
      for (const name of setting.names) {
        const fallback = shape[name]!.safeParse(undefined).data;
        if (fallback !== undefined) expect(setting.shown, name).toContain(`\`${String(fallback)}\``);
      }
    }
  });

  it('is the file `npm run docs:config` writes, at most 120 columns wide', async () => {
    const { readFileSync } = await import('node:fs');
    const { repoRoot } = await import('./config');
    const { renderConfigurationDoc } = await import('./config-docs');
    const written = readFileSync(`${repoRoot}/docs/configuration.md`, 'utf8');
    expect(written, 'docs/configuration.md is out of date: run npm run docs:config').toBe(renderConfigurationDoc());
    expect(written.split('\n').filter((line) => line.length > 120)).toEqual([]);
  });
});
