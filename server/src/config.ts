import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import proxyAddr from '@fastify/proxy-addr';
import { REAUTHENTICATION_WINDOW_MS_DEFAULT } from '@portal/contracts/account';
import { SESSION_ABSOLUTE_MS_DEFAULT, SESSION_IDLE_MS_DEFAULT } from '@portal/contracts/auth';
import { SESSION_TIMER_DEFAULTS } from '@portal/contracts/site-config';
import { z } from 'zod';

/** The password hashing threads' nice increment when PASSWORD_HASH_NICE is unset (docs/decisions/0062). */
export const PASSWORD_HASH_NICE_DEFAULT = 10;

/** Repository root: paths in settings are resolved from here so `npm start` works from any folder. */
// Both server/src/config.ts and the bundled server/dist/main.js sit two levels below the root.
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A duration setting in whole milliseconds, at least `min` and, when given, at most `max`. */
function milliseconds(min: number, max?: number) {
  const ms = z.coerce.number({ message: 'must be a number of milliseconds' }).int().min(min);
  return max === undefined ? ms : ms.max(max);
}

const booleanSetting = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const urlSetting = z
  .url({ message: 'must be an absolute URL such as http://localhost:3000' })
  .transform((v) => v.replace(/\/+$/, ''));

/** The entries of a comma-separated value (spaces around entries ignored; empty entries dropped). */
function splitList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** Whether every entry is an address or CIDR range (as the proxy trust takes them). */
function allAddresses(entries: string[]): boolean {
  try {
    for (const entry of entries) proxyAddr.compile(entry);
    return true;
  } catch {
    return false;
  }
}

/**
 * `false`, `true` (any peer is a proxy: laptops and tests only), or the proxies' addresses and CIDR ranges
 * separated by commas (`10.0.0.0/8, 192.168.1.7`; also `loopback`, `linklocal`, `uniquelocal`).
 */
const trustProxySetting = z.string().transform((value, ctx): boolean | string[] => {
  const trimmed = value.trim().toLowerCase();
  if (['false', '0', 'no'].includes(trimmed)) return false;
  if (['true', '1', 'yes'].includes(trimmed)) return true;
  const entries = splitList(value);
  if (!allAddresses(entries)) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be false or a comma-separated list of proxy addresses or CIDR ranges such as 10.0.0.0/8',
    });
    return z.NEVER;
  }
  return entries.length ? entries : false;
});

/** A comma-separated list (spaces around entries ignored; empty entries dropped). */
const listSetting = z.string().transform(splitList);

/** Addresses and CIDR ranges, comma-separated (`10.0.0.0/8, 192.168.1.7`). */
const addressListSetting = z.string().transform((value, ctx): string[] => {
  const entries = splitList(value);
  if (allAddresses(entries)) return entries;
  ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of addresses or CIDR ranges' });
  return z.NEVER;
});

/** A port number, or `off`. */
const optionalPortSetting = z.string().transform((value, ctx): number | null => {
  const trimmed = value.trim().toLowerCase();
  if (trimmed === 'off') return null;
  const port = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || port > 65535) {
    ctx.addIssue({ code: 'custom', message: 'must be a port number from 0 to 65535, or off' });
    return z.NEVER;
  }
  return port;
});

/** A Subresource Integrity value as vendors publish it: one or more `sha256-`/`sha384-`/`sha512-` base64 hashes. */
const integritySetting = z
  .string()
  .regex(
    /^sha(256|384|512)-[A-Za-z0-9+/]+={0,2}( +sha(256|384|512)-[A-Za-z0-9+/]+={0,2})*$/,
    'must be a Subresource Integrity value such as sha384-<base64 hash>',
  );

const maxAgeMessage = 'must be a whole number of days from 1 to 3650, or empty for no maximum age';

const postgresUrl = z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection URL');

/**
 * Every portal setting, read from the environment (docs/requirements/platform.md#configuration). `.env.example` lists the same names.
 * The CMS reads its own CMS_-prefixed names; the portal reads CMS_URL and the token/webhook handover files.
 */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('localhost'),
  PORT: z.coerce
    .number({ message: 'must be a port number' })
    .int('must be a whole number')
    .min(0, 'must be between 0 and 65535')
    .max(65535, 'must be between 0 and 65535')
    .default(3000),
  PUBLIC_URL: urlSetting.optional(),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: postgresUrl.optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty'], { message: 'must be json or pretty' }).default('json'),
  TRUST_PROXY: trustProxySetting.default(false),
  REQUEST_TIMEOUT_MS: milliseconds(1_000, 300_000).default(15_000),
  // Open connections one client address (an IPv6 /64) may hold; trusted proxies are exempt. 0 = no cap.
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).max(100_000).default(64),
  // On SIGTERM/SIGINT: the longest wait for accepted requests (and their password hashes) to finish before exiting 1.
  SHUTDOWN_TIMEOUT_MS: milliseconds(1_000, 600_000).default(30_000),
  // On SIGTERM/SIGINT: a trusted proxy's idle connection is closed once idle this long, longer than the proxy keeps an
  // idle upstream connection (nginx keepalive_timeout 4 s in deploy/): closing it sooner races the proxy's next request.
  SHUTDOWN_PROXY_IDLE_MS: milliseconds(0, 600_000).default(6_000),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-f]{64}$/i, 'must be 64 hexadecimal characters (32 bytes)')
    .optional(),
  COOKIE_DOMAIN: z
    .string()
    .regex(/^\.?[a-z0-9.-]+$/i, 'must be a domain such as .example.com')
    .optional(),
  WEB_DIST_DIR: z.string().min(1).default('web/dist'),
  // Unset: on outside production, off in production (the demo identifiers are published in the README).
  SEED_DEMO_DATA: booleanSetting.optional(),
  SEED_LOCATIONS: z.coerce.number().int().min(0).max(2_000_000).default(250),
  // Data feeds (docs/requirements/data-feeds.md#settings): past these shares a file is refused whole.
  FEED_MAX_REJECT_SHARE: z.coerce.number().min(0).max(1).default(0.01),
  FEED_MAX_END_DATE_SHARE: z.coerce.number().min(0).max(1).default(0.05),
  // A folder the portal watches for feed files (<folder>/<kind>/); unset: no watching.
  FEED_DROP_FOLDER: z.string().min(1).optional(),
  FEED_DROP_INTERVAL_MS: z.coerce.number().int().min(1000).max(86_400_000).default(60_000),
  // Paid claims older than AUTHORITY_LOOKBACK_DAYS plus this many days are purged.
  CLAIMS_RETENTION_MARGIN_DAYS: z.coerce.number().int().min(0).max(3660).default(365),
  CMS_URL: urlSetting.default('http://127.0.0.1:1337'),
  CMS_TOKEN: z.string().min(1).optional(),
  CMS_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  // The address editors open the CMS admin at (as the CMS reads it): only it may frame the portal's preview pages.
  CMS_PUBLIC_URL: urlSetting.optional(),
  CONTENT_CACHE_TTL_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  // Requests per client and minute that wait for the CMS: uncached /api/content reads and page renders.
  CONTENT_MISSES_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(120),
  // The server's own upstream deadline, short on purpose; the browser's content time-out is separate.
  CMS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  ANALYTICS_SCRIPT_URL: urlSetting.optional(),
  ANALYTICS_SCRIPT_INTEGRITY: integritySetting.optional(),
  CHAT_SCRIPT_URL: urlSetting.optional(),
  CHAT_SCRIPT_INTEGRITY: integritySetting.optional(),
  CHAT_SUPPORT_ADDRESS: z.string().min(1).optional(),
  SURVEY_SCRIPT_URL: urlSetting.optional(),
  SURVEY_SCRIPT_INTEGRITY: integritySetting.optional(),
  JURISDICTION_IMAGE_BASE: z.string().min(1).default('/images/jurisdictions/'),
  // Email (docs/decisions/0017): unset SMTP_URL keeps mail in the outbox (readable in the mail viewer when on).
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  // Production refuses an SMTP_URL without required TLS (smtps://, or smtp://…?requireTLS=true for STARTTLS) unless
  // this says plain text is meant (a relay on the same host): a reset link must not cross the network in clear.
  SMTP_ALLOW_PLAINTEXT: booleanSetting.default(false),
  MAIL_FROM: z.string().min(3).default('Medicare Provider Portal <no-reply@localhost>'),
  MAIL_VIEWER: booleanSetting.default(false),
  // argon2id cost: at least OWASP's minimum (19 MiB, 2 passes); raising either rehashes passwords at next login.
  PASSWORD_HASH_MEMORY_KIB: z.coerce
    .number()
    .int()
    .min(19_456, 'must be at least 19456 (19 MiB)')
    .max(1_048_576)
    .default(19_456),
  PASSWORD_HASH_ITERATIONS: z.coerce.number().int().min(2, 'must be at least 2').max(20).default(2),
  // Default: one hash per core. More would only crowd the event loop out of the CPU (docs/decisions/0025).
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(availableParallelism()),
  // Hashing threads run this much below the event loop's priority (Linux nice), so requests keep a core during a
  // burst of logins (docs/decisions/0062); 0 = the same priority.
  PASSWORD_HASH_NICE: z.coerce.number().int().min(0).max(19).default(PASSWORD_HASH_NICE_DEFAULT),
  PASSWORD_HISTORY_COUNT: z.coerce.number().int().min(0).max(24).default(6),
  // Unset (the default): passwords never expire, as NIST SP 800-63B advises; some deployments must set a lifetime.
  PASSWORD_MAX_AGE_DAYS: z.coerce
    .number({ message: maxAgeMessage })
    .int(maxAgeMessage)
    .min(1, maxAgeMessage)
    .max(3650, maxAgeMessage)
    .optional(),
  // Sessions and login (docs/requirements/session.md): short values only in tests.
  SESSION_IDLE_MS: milliseconds(1_000, 86_400_000).default(SESSION_IDLE_MS_DEFAULT),
  // The browser's inactivity prompt shows this long before SESSION_IDLE_MS runs out (docs/requirements/session.md).
  SESSION_PROMPT_BEFORE_IDLE_MS: milliseconds(1_000, 86_400_000).default(SESSION_TIMER_DEFAULTS.promptBeforeIdleMs),
  SESSION_ABSOLUTE_MS: milliseconds(1_000, 7 * 86_400_000).default(SESSION_ABSOLUTE_MS_DEFAULT),
  LOGIN_LOCKOUT_THRESHOLD: z.coerce.number().int().min(1).max(100).default(5),
  LOGIN_LOCKOUT_WINDOW_MS: milliseconds(1_000).default(120 * 60_000),
  LOGIN_LOCKOUT_DURATION_MS: milliseconds(1_000).default(60 * 60_000),
  // Wrong passwords of one account in 24 hours, counted across locks and administrators' unlocks: reaching it locks the
  // account until the help desk unlocks it (docs/requirements/session.md#lockout).
  LOGIN_DAILY_FAILURE_CEILING: z.coerce.number().int().min(1).max(1_000).default(20),
  LOGIN_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(20),
  MFA_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(10),
  // Wrong second factors of one account across logins, until one is accepted: then the account locks
  // (docs/decisions/0029; NIST SP 800-63B allows at most 100).
  MFA_ACCOUNT_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(20),
  // Changing the password, email, phone, second factors or security answers needs a login younger than this.
  REAUTHENTICATION_WINDOW_MS: milliseconds(1_000, 86_400_000).default(REAUTHENTICATION_WINDOW_MS_DEFAULT),
  // Login help and account lifecycle (docs/requirements/portal.md#login-help).
  INACTIVITY_DISABLE_DAYS: z.coerce.number().int().min(1).max(3650).default(60),
  // Staff accounts (docs/requirements/staff-accounts.md).
  RECERTIFICATION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  ADMINS_PER_LOCATION_MAX: z.coerce.number().int().min(1).max(100).default(5),
  LOGIN_HELP_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(10),
  RESET_EMAILS_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(20),
  FIND_ADMIN_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
  FIND_ADMIN_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(300),
  // Retention (docs/requirements/portal.md#rate-limits-and-audit): purged hourly, in batches.
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  ONE_TIME_TOKEN_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(7),
  SENT_MAIL_RETENTION_DAYS: z.coerce.number().int().min(0).max(3650).default(7),
  // "Ask this administrator to contact me": requests per client address and per location, per day.
  FIND_ADMIN_CONTACT_PER_CLIENT_PER_DAY: z.coerce.number().int().min(1).max(10_000).default(5),
  FIND_ADMIN_CONTACT_PER_LOCATION_PER_DAY: z.coerce.number().int().min(1).max(10_000).default(10),
  // Administrator registration (docs/requirements/portal.md#authority-validation).
  AUTHORITY_LOOKBACK_DAYS: z.coerce.number().int().min(1).max(3660).default(90),
  AUTHORITY_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  AUTHORITY_LOCK_MS: milliseconds(1_000).default(30 * 60_000),
  AUTHORITY_CLIENT_MAX_FAILURES: z.coerce.number().int().min(1).max(1000).default(20),
  REGISTRATION_ATTEMPTS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(20),
  // Invitations per hour, per client address, per administrator and per location, each
  // (docs/requirements/staff-accounts.md#invitations).
  INVITATIONS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(30),
  // The help-desk console (docs/requirements/help-desk.md): contractor staff sign in through the enterprise directory
  // (OpenID Connect). Unset OIDC_ISSUER: no console (every /ops page and /api/ops route answers 404).
  OIDC_ISSUER: urlSetting.optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  // Where the directory sends the browser back; default PUBLIC_URL + /api/ops/auth/callback.
  OIDC_REDIRECT_URL: urlSetting.optional(),
  OIDC_SCOPES: z.string().min(1).default('openid profile email'),
  OIDC_GROUPS_CLAIM: z.string().min(1).default('groups'),
  OIDC_HELP_DESK_GROUPS: listSetting.default(['help-desk']),
  OIDC_SUPERVISOR_GROUPS: listSetting.default(['help-desk-supervisor']),
  // Unset: required in production, not elsewhere. Multi-factor = an `amr` of OIDC_MFA_AMR_VALUES or an `acr` listed.
  OIDC_REQUIRE_MFA: booleanSetting.optional(),
  OIDC_MFA_AMR_VALUES: listSetting.default(['mfa', 'otp', 'hwk', 'swk', 'fido', 'sms']),
  OIDC_MFA_ACR_VALUES: listSetting.default([]),
  // Plain http:// to the directory: laptops and tests only (refused in production).
  OIDC_ALLOW_HTTP: booleanSetting.default(false),
  // The console's own session (CMS ARS AC-11 for privileged users: 15 minutes idle).
  OPS_SESSION_IDLE_MS: milliseconds(1_000, 86_400_000).default(15 * 60_000),
  OPS_SESSION_ABSOLUTE_MS: milliseconds(1_000, 86_400_000).default(8 * 3_600_000),
  // The next console request after this long asks the directory again whether the person is signed in, with a role.
  OPS_ROLE_RECHECK_MS: milliseconds(1_000, 86_400_000).default(5 * 60_000),
  // Addresses and CIDR ranges allowed to open /ops and /api/ops (comma-separated); unset: any.
  OPS_ALLOWED_ADDRESSES: addressListSetting.optional(),
  // Operations (docs/decisions/0033-openapi-metrics-deployment.md): Prometheus metrics on their own port, loopback
  // only by default; `off` serves none. Several instances on one host each need their own port.
  METRICS_PORT: optionalPortSetting.default(9464),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  // Benchmarks only (bench/gates/soak.ts): `POST /bench/gc` on the metrics port forces a garbage collection (the
  // process must run with --expose-gc) and answers the memory after it. Off by default; never on the public port.
  METRICS_BENCH_GC: booleanSetting.default(false),
  // The API reference at /api/docs and /api/openapi.json. Unset: on outside production, off in production.
  API_DOCS: booleanSetting.optional(),
  // Browser tests only (docs/decisions/0043), refused in production: a file holding milliseconds added to the system
  // clock (tests move time through it), and one interval for every job, its first run included.
  TEST_CLOCK_FILE: z.string().min(1).optional(),
  TEST_JOB_INTERVAL_MS: z.coerce
    .number({ message: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .min(100, 'must be at least 100')
    .max(86_400_000, 'must be at most 86400000 (a day)')
    .optional(),
});

/**
 * Why an SMTP URL would let mail go in clear or to an unchecked server, or undefined when it requires TLS: `smtps://`
 * (TLS from the start), or `smtp://` with `requireTLS=true` (nodemailer then refuses a server without STARTTLS); and
 * neither with `tls.rejectUnauthorized=false` (no certificate check).
 */
export function smtpTlsProblem(smtpUrl: string): string | undefined {
  const url = new URL(smtpUrl);
  const suffix = 'when NODE_ENV=production (or set SMTP_ALLOW_PLAINTEXT=true for a relay on this host)';
  if (url.searchParams.get('tls.rejectUnauthorized') === 'false')
    return `must not turn off the certificate check (tls.rejectUnauthorized=false) ${suffix}`;
  if (url.protocol === 'smtps:' || url.searchParams.get('requireTLS') === 'true') return undefined;
  return `must require TLS: smtps://host:465, or smtp://host:587?requireTLS=true for STARTTLS, ${suffix}`;
}

export const ConfigSchema = EnvSchema.transform((env) => {
  const fromRoot = (p: string) => (isAbsolute(p) ? p : resolve(repoRoot, p));
  return {
    env: env.NODE_ENV,
    isProduction: env.NODE_ENV === 'production',
    host: env.HOST,
    port: env.PORT,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    dataDir: fromRoot(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    databasePoolMax: env.DATABASE_POOL_MAX,
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT,
    trustProxy: env.TRUST_PROXY,
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    maxConnectionsPerAddress: env.MAX_CONNECTIONS_PER_ADDRESS,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    shutdownProxyIdleMs: env.SHUTDOWN_PROXY_IDLE_MS,
    sessionSecret: env.SESSION_SECRET,
    encryptionKey: env.ENCRYPTION_KEY,
    cookieDomain: env.COOKIE_DOMAIN,
    webDistDir: fromRoot(env.WEB_DIST_DIR),
    seedDemoData: env.SEED_DEMO_DATA ?? env.NODE_ENV !== 'production',
    seedLocations: env.SEED_LOCATIONS,
    cms: {
      url: env.CMS_URL,
      token: env.CMS_TOKEN,
      webhookSecret: env.CMS_WEBHOOK_SECRET,
      adminOrigin: new URL(env.CMS_PUBLIC_URL ?? `http://localhost:${new URL(env.CMS_URL).port || '1337'}`).origin,
      cacheTtlMs: env.CONTENT_CACHE_TTL_MS,
      missesPerMinute: env.CONTENT_MISSES_PER_MINUTE,
      timeoutMs: env.CMS_TIMEOUT_MS,
    },
    thirdParty: {
      analyticsScriptUrl: env.ANALYTICS_SCRIPT_URL,
      analyticsScriptIntegrity: env.ANALYTICS_SCRIPT_INTEGRITY,
      chatScriptUrl: env.CHAT_SCRIPT_URL,
      chatScriptIntegrity: env.CHAT_SCRIPT_INTEGRITY,
      chatSupportAddress: env.CHAT_SUPPORT_ADDRESS,
      surveyScriptUrl: env.SURVEY_SCRIPT_URL,
      surveyScriptIntegrity: env.SURVEY_SCRIPT_INTEGRITY,
    },
    jurisdictionImageBase: env.JURISDICTION_IMAGE_BASE,
    mail: {
      smtpUrl: env.SMTP_URL,
      allowPlaintext: env.SMTP_ALLOW_PLAINTEXT,
      from: env.MAIL_FROM,
      viewer: env.MAIL_VIEWER,
    },
    passwords: {
      hashMemoryKib: env.PASSWORD_HASH_MEMORY_KIB,
      hashIterations: env.PASSWORD_HASH_ITERATIONS,
      hashConcurrency: env.PASSWORD_HASH_CONCURRENCY,
      hashNice: env.PASSWORD_HASH_NICE,
      historyCount: env.PASSWORD_HISTORY_COUNT,
      /** Undefined: no maximum age. */
      maxAgeDays: env.PASSWORD_MAX_AGE_DAYS,
    },
    sessions: {
      idleMs: env.SESSION_IDLE_MS,
      absoluteMs: env.SESSION_ABSOLUTE_MS,
      promptBeforeIdleMs: env.SESSION_PROMPT_BEFORE_IDLE_MS,
    },
    login: {
      lockoutThreshold: env.LOGIN_LOCKOUT_THRESHOLD,
      lockoutWindowMs: env.LOGIN_LOCKOUT_WINDOW_MS,
      lockoutDurationMs: env.LOGIN_LOCKOUT_DURATION_MS,
      dailyFailureCeiling: env.LOGIN_DAILY_FAILURE_CEILING,
      attemptsPerMinute: env.LOGIN_ATTEMPTS_PER_MINUTE,
      mfaMaxFailures: env.MFA_MAX_FAILURES,
      mfaAccountMaxFailures: env.MFA_ACCOUNT_MAX_FAILURES,
      reauthenticationWindowMs: env.REAUTHENTICATION_WINDOW_MS,
    },
    staff: {
      /** A person–location link's certification lasts this long from its approval or last recertification. */
      recertificationDays: env.RECERTIFICATION_DAYS,
      adminsPerLocationMax: env.ADMINS_PER_LOCATION_MAX,
    },
    loginHelp: {
      inactivityDisableDays: env.INACTIVITY_DISABLE_DAYS,
      attemptsPerMinute: env.LOGIN_HELP_ATTEMPTS_PER_MINUTE,
      resetEmailsPerHour: env.RESET_EMAILS_PER_HOUR,
      findAdminPerMinute: env.FIND_ADMIN_PER_MINUTE,
      findAdminPerDay: env.FIND_ADMIN_PER_DAY,
      findAdminContactPerClientPerDay: env.FIND_ADMIN_CONTACT_PER_CLIENT_PER_DAY,
      findAdminContactPerLocationPerDay: env.FIND_ADMIN_CONTACT_PER_LOCATION_PER_DAY,
    },
    retention: {
      auditDays: env.AUDIT_RETENTION_DAYS,
      tokenDays: env.ONE_TIME_TOKEN_RETENTION_DAYS,
      sentMailDays: env.SENT_MAIL_RETENTION_DAYS,
    },
    feeds: {
      maxRejectShare: env.FEED_MAX_REJECT_SHARE,
      maxEndDateShare: env.FEED_MAX_END_DATE_SHARE,
      dropFolder: env.FEED_DROP_FOLDER === undefined ? undefined : fromRoot(env.FEED_DROP_FOLDER),
      dropIntervalMs: env.FEED_DROP_INTERVAL_MS,
      claimsRetentionMarginDays: env.CLAIMS_RETENTION_MARGIN_DAYS,
    },
    registration: {
      lookbackDays: env.AUTHORITY_LOOKBACK_DAYS,
      authorityMaxFailures: env.AUTHORITY_MAX_FAILURES,
      authorityLockMs: env.AUTHORITY_LOCK_MS,
      authorityClientMaxFailures: env.AUTHORITY_CLIENT_MAX_FAILURES,
      attemptsPerMinute: env.REGISTRATION_ATTEMPTS_PER_MINUTE,
    },
    invitations: { perHour: env.INVITATIONS_PER_HOUR },
    /** The help-desk console (docs/requirements/help-desk.md); `oidc` null: no console. */
    ops: {
      oidc: env.OIDC_ISSUER
        ? {
            issuer: env.OIDC_ISSUER,
            clientId: env.OIDC_CLIENT_ID ?? '',
            clientSecret: env.OIDC_CLIENT_SECRET,
            redirectUrl:
              env.OIDC_REDIRECT_URL ?? `${env.PUBLIC_URL ?? `http://localhost:${env.PORT}`}/api/ops/auth/callback`,
            scopes: env.OIDC_SCOPES,
            groupsClaim: env.OIDC_GROUPS_CLAIM,
            helpDeskGroups: env.OIDC_HELP_DESK_GROUPS,
            supervisorGroups: env.OIDC_SUPERVISOR_GROUPS,
            requireMfa: env.OIDC_REQUIRE_MFA ?? env.NODE_ENV === 'production',
            mfaAmrValues: env.OIDC_MFA_AMR_VALUES,
            mfaAcrValues: env.OIDC_MFA_ACR_VALUES,
            allowHttp: env.OIDC_ALLOW_HTTP,
          }
        : null,
      idleMs: env.OPS_SESSION_IDLE_MS,
      absoluteMs: env.OPS_SESSION_ABSOLUTE_MS,
      roleRecheckMs: env.OPS_ROLE_RECHECK_MS,
      /** Undefined: any address. */
      allowedAddresses: env.OPS_ALLOWED_ADDRESSES,
    },

    /** `port: null`: no metrics port. */
    metrics: { port: env.METRICS_PORT, host: env.METRICS_HOST, benchGc: env.METRICS_BENCH_GC },
    apiDocs: env.API_DOCS ?? env.NODE_ENV !== 'production',
    /** Test-only settings (docs/decisions/0043); both unset outside browser tests. */
    testing: {
      clockFile: env.TEST_CLOCK_FILE === undefined ? undefined : fromRoot(env.TEST_CLOCK_FILE),
      jobIntervalMs: env.TEST_JOB_INTERVAL_MS,
    },
  };
}).superRefine((config, ctx) => {
  // The prompt point (idle limit minus the prompt time) must come before the timeout, after the start.
  if (config.sessions.promptBeforeIdleMs >= config.sessions.idleMs)
    ctx.addIssue({
      code: 'custom',
      path: ['SESSION_PROMPT_BEFORE_IDLE_MS'],
      message: 'must be shorter than SESSION_IDLE_MS',
    });
  if (config.sessions.idleMs > config.sessions.absoluteMs)
    ctx.addIssue({ code: 'custom', path: ['SESSION_IDLE_MS'], message: 'must not be longer than SESSION_ABSOLUTE_MS' });
  if (config.ops.oidc && !config.ops.oidc.clientId)
    ctx.addIssue({ code: 'custom', path: ['OIDC_CLIENT_ID'], message: 'is required when OIDC_ISSUER is set' });
  if (config.ops.idleMs > config.ops.absoluteMs)
    ctx.addIssue({
      code: 'custom',
      path: ['OPS_SESSION_IDLE_MS'],
      message: 'must not be longer than OPS_SESSION_ABSOLUTE_MS',
    });
  // Production must not invent secrets on its own disk: several instances need the same ones.
  if (config.isProduction) {
    if (!config.sessionSecret)
      ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'is required when NODE_ENV=production' });
    if (!config.encryptionKey)
      ctx.addIssue({ code: 'custom', path: ['ENCRYPTION_KEY'], message: 'is required when NODE_ENV=production' });
    // `true` believes any X-Forwarded-For, so every client could choose its own address (and rate-limit key).
    if (config.trustProxy === true) {
      ctx.addIssue({
        code: 'custom',
        path: ['TRUST_PROXY'],
        message: "must list the proxies' addresses or CIDR ranges when NODE_ENV=production, not true",
      });
    }
    if (config.ops.oidc?.allowHttp)
      ctx.addIssue({ code: 'custom', path: ['OIDC_ALLOW_HTTP'], message: 'must not be true when NODE_ENV=production' });
    // The viewer shows every email (reset links included) to anyone who can reach the server.
    if (config.mail.viewer)
      ctx.addIssue({ code: 'custom', path: ['MAIL_VIEWER'], message: 'must not be true when NODE_ENV=production' });
    // Opportunistic STARTTLS (plain smtp://) sends in clear to a relay, or a man in the middle, that offers no TLS.
    const smtpProblem = config.mail.smtpUrl && !config.mail.allowPlaintext && smtpTlsProblem(config.mail.smtpUrl);
    if (smtpProblem) ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: smtpProblem });
    // A movable clock or hurried jobs would let anyone with the file (or the setting) expire links and sessions.
    for (const [name, set] of [
      ['TEST_CLOCK_FILE', config.testing.clockFile !== undefined],
      ['TEST_JOB_INTERVAL_MS', config.testing.jobIntervalMs !== undefined],
    ] as const)
      if (set)
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'is for tests only: not allowed when NODE_ENV=production',
        });
  }
});

export type Config = z.output<typeof ConfigSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'ConfigError';
  }
}

/** Parses settings; throws ConfigError whose problems each name the variable, e.g. "PORT must be a port number (got "abc")". */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings count as unset so that `FOO= npm start` falls back to the default.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = ConfigSchema.safeParse(cleaned);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'configuration');
    const got =
      name in cleaned && !/SECRET|KEY|TOKEN|PASSWORD|DATABASE_URL|SMTP_URL/.test(name)
        ? ` (got "${cleaned[name]}")`
        : '';
    return `${name} ${issue.message}${got}`;
  });
  throw new ConfigError(problems);
}

/**
 * For the command-line tools: the settings, or one readable line per bad setting and exit code 1 (no stack trace:
 * this is the operator's input).
 */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const problem of err.problems) console.error(`Configuration error: ${problem}`);
    process.exit(1);
  }
}
