import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** Repository root: paths in settings are resolved from here so `npm start` works from any folder. */
// Both server/src/config.ts and the bundled server/dist/main.js sit two levels below the root.
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

const booleanSetting = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const urlSetting = z.url({ message: 'must be an absolute URL such as http://localhost:3000' }).transform((v) => v.replace(/\/+$/, ''));

const postgresUrl = z
  .string()
  .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection URL');

/**
 * Every portal setting, read from the environment (DESIGN §3 "Config"). `.env.example` lists the same names.
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
    TRUST_PROXY: booleanSetting.default(false),
    SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    ENCRYPTION_KEY: z
      .string()
      .regex(/^[0-9a-f]{64}$/i, 'must be 64 hexadecimal characters (32 bytes)')
      .optional(),
    COOKIE_DOMAIN: z.string().regex(/^\.?[a-z0-9.-]+$/i, 'must be a domain such as .example.com').optional(),
    WEB_DIST_DIR: z.string().min(1).default('web/dist'),
    SEED_DEMO_DATA: booleanSetting.default(true),
    SEED_LOCATIONS: z.coerce.number().int().min(0).max(2_000_000).default(250),
    CMS_URL: urlSetting.default('http://127.0.0.1:1337'),
    CMS_TOKEN: z.string().min(1).optional(),
    CMS_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    CONTENT_PREVIEW: booleanSetting.default(false),
    CONTENT_CACHE_TTL_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
    CONTENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(180_000).default(180_000),
    ANALYTICS_SCRIPT_URL: urlSetting.optional(),
    CHAT_SCRIPT_URL: urlSetting.optional(),
    CHAT_SUPPORT_ADDRESS: z.string().min(1).optional(),
    SURVEY_SCRIPT_URL: urlSetting.optional(),
    JURISDICTION_IMAGE_BASE: z.string().min(1).default('/images/jurisdictions/'),
});

export const ConfigSchema = EnvSchema
  .transform((env) => {
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
      sessionSecret: env.SESSION_SECRET,
      encryptionKey: env.ENCRYPTION_KEY,
      cookieDomain: env.COOKIE_DOMAIN,
      webDistDir: fromRoot(env.WEB_DIST_DIR),
      seedDemoData: env.SEED_DEMO_DATA,
      seedLocations: env.SEED_LOCATIONS,
      cms: {
        url: env.CMS_URL,
        token: env.CMS_TOKEN,
        webhookSecret: env.CMS_WEBHOOK_SECRET,
        preview: env.CONTENT_PREVIEW,
        cacheTtlMs: env.CONTENT_CACHE_TTL_MS,
        timeoutMs: env.CONTENT_TIMEOUT_MS,
      },
      thirdParty: {
        analyticsScriptUrl: env.ANALYTICS_SCRIPT_URL,
        chatScriptUrl: env.CHAT_SCRIPT_URL,
        chatSupportAddress: env.CHAT_SUPPORT_ADDRESS,
        surveyScriptUrl: env.SURVEY_SCRIPT_URL,
      },
      jurisdictionImageBase: env.JURISDICTION_IMAGE_BASE,
    };
  })
  .superRefine((config, ctx) => {
    // Production must not invent secrets on its own disk: several instances need the same ones.
    if (config.isProduction) {
      if (!config.sessionSecret) ctx.addIssue({ code: 'custom', path: ['SESSION_SECRET'], message: 'is required when NODE_ENV=production' });
      if (!config.encryptionKey) ctx.addIssue({ code: 'custom', path: ['ENCRYPTION_KEY'], message: 'is required when NODE_ENV=production' });
    }
  });

export type Config = z.output<typeof ConfigSchema>;
export type ConfigInput = Partial<Record<keyof z.input<typeof ConfigSchema>, string>>;

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
    const got = name in cleaned && !/SECRET|KEY|TOKEN|PASSWORD|DATABASE_URL/.test(name) ? ` (got "${cleaned[name]}")` : '';
    return `${name} ${issue.message}${got}`;
  });
  throw new ConfigError(problems);
}

export function webDistExists(config: Config): boolean {
  return existsSync(resolve(config.webDistDir, 'index.html'));
}
