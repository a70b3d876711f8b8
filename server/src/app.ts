import { constants as zlibConstants } from 'node:zlib';
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify';
import fastifyCompress from '@fastify/compress';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { REQUEST_ID_HEADER } from '@portal/contracts/http';
import type { Config } from './config';
import { contentPlugin, type ContentLimits } from './content/plugin';
import { COMPRESS_THRESHOLD_BYTES, PER_REQUEST_BROTLI_QUALITY, PER_REQUEST_GZIP_LEVEL } from './content/encodings';
import type { DatabaseHandle } from './db/client';
import { claimsRetentionJob } from './feeds/claims-retention';
import { DropFolderWatcher } from './feeds/drop-folder';
import { healthRoutes } from './modules/health/routes';
import { siteConfigRoutes } from './modules/site-config/routes';
import { sitemapRoutes, staticSitePlugin } from './modules/web/routes';
import { connectionsCheckingInterval, limitConnections } from './platform/connection-limits';
import { cspReportRoutes } from './platform/csp-report';
import { csrfPlugin } from './platform/csrf';
import { errorHandlerPlugin, sendError } from './platform/error-handler';
import { jsonBodyPlugin } from './platform/json-body';
import { JobRunner, type Job } from './platform/jobs';
import './emails';
import { outboxSenderJob } from './platform/mail/outbox';
import { MAIL_VIEWER_PATH, mailViewerRoutes } from './platform/mail/viewer';
import { metricsPlugin } from './platform/metrics';
import { registerOpenApi } from './platform/openapi';
import { opsGuardPlugin, opsRoutes } from './modules/ops/routes';
import { opsSessionCleanupJob } from './modules/ops/service';
import { PasswordHasher } from './platform/password-hashing';
import { rateLimitCleanupJob } from './platform/rate-limit';
import { passwordRoutes } from './modules/password-generator/routes';
import { accountRoutes } from './modules/account/routes';
import { adminRoutes } from './modules/admin/routes';
import { adminGuardPlugin } from './identity/admin-guard';
import { ACCOUNT_AUDIT_COUNTERS } from './identity/audit-metrics';
import { authRoutes } from './modules/auth/routes';
import { passkeyRoutes } from './modules/passkeys/routes';
import { accessRequestRoutes } from './modules/access-requests/routes';
import { ddeAccessRoutes } from './modules/dde-access/routes';
import { findAdminRoutes } from './modules/find-admin/routes';
import { invitationRoutes } from './modules/invitations/routes';
import { inactivityDisableJob } from './modules/login-help/inactivity-job';
import { loginHelpRoutes } from './modules/login-help/routes';
import { demoClaimsRefreshJob, registrationExpiryJob } from './modules/registration/jobs';
import { registrationRoutes } from './modules/registration/routes';
import { recertificationRoutes } from './modules/recertification/routes';
import { recertificationHold } from './modules/recertification/service';
import { staffAccountJobs } from './modules/recertification/jobs';
import { isQuietRequest, lazyChildLogger, loggerOptions } from './platform/logger';
import { proxyTrust } from './platform/proxy-trust';
import { requestIdGenerator } from './platform/request-id';
import { routeAuditPlugin } from './identity/route-audit';
import { retentionJobs } from './platform/retention';
import { loadSecrets, type Secrets } from './platform/secrets';
import { cmsSecurityQuestionKeys, type SecurityQuestionKeys } from './identity/security-questions';
import { tokenRetentionJob } from './identity/one-time-tokens';
import { sessionCleanupJob } from './identity/sessions/store';
import { sessionPlugin } from './identity/sessions/cookie';
import { countRequestsForDrain, trackConnectionsForDrain, waitForRequestsOnClose } from './platform/shutdown';
import { testingClock } from './platform/test-clock';
import {
  helmetOptions,
  previewPageHelmetOptions,
  reportingEndpointsHeader,
  securityHeadersPlugin,
  staticSecurityHeaders,
} from './platform/security-headers';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    secrets: Secrets;
    /** Periodic jobs, one instance at a time; `jobs.kick(OUTBOX_JOB)` after a transaction that queued email. */
    jobs: JobRunner;
    passwordHasher: PasswordHasher;
    /** The keys of the CMS's security-question list (503 when the CMS cannot be reached). */
    securityQuestionKeys: SecurityQuestionKeys;
  }
}

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  /** Where log lines go instead of stdout: pino-pretty in development (main.ts), a stream tests read. */
  logStream?: NodeJS.WritableStream;
  /** Called for every route as it is declared, before any plugin: tests walk the whole route table with it. */
  onRoute?: (route: RouteOptions) => void;
  /** The current time (default: the system clock); tests move it through session and lockout limits. */
  clock?: () => Date;
  /** The content proxy's cache sizes and limits (defaults: content/plugin.ts); tests shrink them. */
  contentLimits?: Partial<ContentLimits>;
  /** The CMS's security-question keys (default: read through the content service); tests give a fixed list. */
  securityQuestionKeys?: SecurityQuestionKeys;
}

/** Origins whose browser calls may change state (CSRF check). Locally both loopback names reach the same server. */
function allowedOrigins(config: Config): string[] {
  const origins = [config.publicUrl];
  const url = new URL(config.publicUrl);
  if (!config.isProduction && (url.hostname === 'localhost' || url.hostname === '127.0.0.1')) {
    origins.push(`${url.protocol}//localhost:${url.port}`, `${url.protocol}//127.0.0.1:${url.port}`);
  }
  return origins;
}

/**
 * Errors Fastify raises before routing (a malformed percent-encoding in the path, an over-long parameter): no hook
 * runs for them, so they get the baseline headers and the request id here, then the usual error envelope.
 */
function frameworkErrorHandler(baselineHeaders: Record<string, string>) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(baselineHeaders).header(REQUEST_ID_HEADER, request.id);
    sendError(error, request, reply);
  };
}

/** Builds the portal server without listening, so tests drive it with `app.inject`. */
export async function buildApp({
  config,
  database,
  logStream,
  onRoute,
  clock,
  contentLimits,
  securityQuestionKeys,
}: AppDependencies): Promise<FastifyInstance> {
  // helmet's header set depends on configuration only: worked out once (docs/decisions/0010).
  const baselineHeaders = {
    ...staticSecurityHeaders(helmetOptions(config)),
    'reporting-endpoints': reportingEndpointsHeader(config),
  };
  const trust = proxyTrust(config.trustProxy);
  const app = Fastify({
    logger: logStream ? { ...loggerOptions(config.logLevel), stream: logStream } : loggerOptions(config.logLevel),
    genReqId: requestIdGenerator(trust),
    childLoggerFactory: lazyChildLogger,
    logController: new LogController({
      requestIdLogLabel: 'requestId',
      disableRequestLogging: (req: { url?: string; method?: string }) => isQuietRequest(req.url ?? '', req.method),
    }),
    // X-Forwarded-For is believed from the configured proxies only (docs/decisions/0014).
    trustProxy: config.trustProxy === false ? false : trust,
    bodyLimit: 100 * 1024,
    requestTimeout: config.requestTimeoutMs,
    // Headers and the whole request within REQUEST_TIMEOUT_MS, checked every quarter second (Node's default headers
    // limit is 60 s and its check runs every 30 s); the body's deadline is limitConnections' (docs/decisions/0032).
    http: {
      headersTimeout: config.requestTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: connectionsCheckingInterval(config.requestTimeoutMs),
    },
    connectionTimeout: 20_000,
    // On shutdown a request on an open connection is served with `Connection: close` (not refused with 503) and idle
    // connections are closed as platform/shutdown.ts decides (docs/decisions/0061-bench-gates-as-they-stand.md).
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    frameworkErrors: frameworkErrorHandler(baselineHeaders),
  }).withTypeProvider<ZodTypeProvider>();

  limitConnections(app.server, {
    requestTimeoutMs: config.requestTimeoutMs,
    maxPerAddress: config.maxConnectionsPerAddress,
    isTrustedProxy: (address) => trust(address, 0),
    log: app.log,
  });
  trackConnectionsForDrain(app.server, {
    isTrustedProxy: (address) => trust(address, 0),
    proxyIdleMs: config.shutdownProxyIdleMs,
  });
  const requestsInFlight = countRequestsForDrain(app);
  if (onRoute) app.addHook('onRoute', onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('clock', clock ?? testingClock(config, app.log) ?? (() => new Date()));
  app.decorate('secrets', loadSecrets(config));
  app.decorate(
    'passwordHasher',
    new PasswordHasher({
      memoryKib: config.passwords.hashMemoryKib,
      iterations: config.passwords.hashIterations,
      maxConcurrent: config.passwords.hashConcurrency,
      niceIncrement: config.passwords.hashNice,
    }),
  );
  app.addHook('onClose', async () => app.passwordHasher.close());
  const jobs: Job[] = [
    rateLimitCleanupJob(),
    sessionCleanupJob(config.sessions, undefined, { now: app.clock }),
    opsSessionCleanupJob(config.ops, { now: app.clock }),
    ...retentionJobs({ ...config.retention, now: app.clock }),
    tokenRetentionJob({ ...config.retention, now: app.clock }),
    inactivityDisableJob({ days: config.loginHelp.inactivityDisableDays, now: app.clock }),
    registrationExpiryJob(),
    ...staffAccountJobs({ now: app.clock }),
    claimsRetentionJob({
      lookbackDays: config.registration.lookbackDays,
      marginDays: config.feeds.claimsRetentionMarginDays,
      now: app.clock,
    }),
  ];
  if (config.seedDemoData) jobs.push(demoClaimsRefreshJob());
  if (config.mail.smtpUrl)
    jobs.push(outboxSenderJob({ smtpUrl: config.mail.smtpUrl, from: config.mail.from, publicUrl: config.publicUrl }));
  const jobRunner = new JobRunner(database.db, jobs, app.log, app.clock, { intervalMs: config.testing.jobIntervalMs });
  app.decorate('jobs', jobRunner);
  // Before every route: its onResponse hook times them all (docs/decisions/0033-openapi-metrics-deployment.md).
  await app.register(metricsPlugin, { database, auditCounters: ACCOUNT_AUDIT_COUNTERS });
  jobRunner.onRunFinished = (job, outcome, seconds) => app.metrics.jobFinished(job, outcome, seconds);
  // Jobs run on a listening server only (tests drive them with runOnce); they stop before the database closes.
  app.addHook('onListen', async () => jobRunner.start());
  app.addHook('onClose', async () => jobRunner.stop());
  // The data-feed drop folder, when set (docs/requirements/data-feeds.md#drop-folder): watched on a listening server.
  const { dropFolder, dropIntervalMs, maxRejectShare, maxEndDateShare } = config.feeds;
  if (dropFolder) {
    const watcher = new DropFolderWatcher(database, dropFolder, dropIntervalMs, app.log, {
      maxRejectShare,
      maxEndDateShare,
    });
    app.addHook('onListen', async () => watcher.start());
    app.addHook('onClose', async () => watcher.stop());
  }

  await app.register(securityHeadersPlugin, { headers: baselineHeaders });
  // Dynamic text answers above 1 KB leave brotli- or gzip-compressed (with Vary: Accept-Encoding). Registered before
  // every route (it hooks each as declared). Cached content and precompressed static files carry their own
  // compressed bytes and skip it (docs/decisions/0019); pages drawn per session by the not-found handler, which it
  // does not hook, are compressed there at the same quality (docs/decisions/0090).
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: PER_REQUEST_BROTLI_QUALITY } },
    zlibOptions: { level: PER_REQUEST_GZIP_LEVEL },
  });
  await app.register(errorHandlerPlugin);
  await app.register(jsonBodyPlugin);
  await app.register(csrfPlugin, { allowedOrigins: allowedOrigins(config) });
  // After the CSRF check's: each plugin puts its onRequest hook first, so the audit's watch runs before any refusal.
  await app.register(routeAuditPlugin);
  await app.register(sessionPlugin);
  // Before every route: it guards each one under /api/admin as declared (docs/decisions/0039-admin-guard.md).
  await app.register(adminGuardPlugin, { recertificationHold });
  await app.register(opsGuardPlugin);
  // The API reference collects routes as they are declared: before them (docs/decisions/0033-openapi-metrics-deployment.md).
  if (config.apiDocs) await registerOpenApi(app, { publicUrl: config.publicUrl, ui: true });
  await app.register(healthRoutes, { database });
  await app.register(cspReportRoutes);
  await app.register(siteConfigRoutes, { config });
  await app.register(contentPlugin, { config, database, limits: contentLimits });
  app.decorate(
    'securityQuestionKeys',
    securityQuestionKeys ?? cmsSecurityQuestionKeys((url) => app.contentService.readPublished(url, app.log)),
  );
  await app.register(sitemapRoutes, { config });
  await app.register(passwordRoutes);
  await app.register(authRoutes);
  await app.register(passkeyRoutes);
  await app.register(accountRoutes);
  await app.register(loginHelpRoutes);
  await app.register(findAdminRoutes);
  await app.register(invitationRoutes);
  await app.register(ddeAccessRoutes);
  await app.register(adminRoutes);
  await app.register(accessRequestRoutes);
  await app.register(registrationRoutes);
  await app.register(recertificationRoutes);
  await app.register(opsRoutes);
  if (config.mail.viewer) {
    app.log.warn(
      { path: MAIL_VIEWER_PATH },
      'MAIL_VIEWER is on: every queued email, reset links included, is readable at /dev/mail',
    );
    await app.register(mailViewerRoutes);
  }
  await app.register(staticSitePlugin, {
    webDistDir: config.webDistDir,
    publicUrl: config.publicUrl,
    previewHeaders: staticSecurityHeaders(previewPageHelmetOptions(config)),
  });
  // Last, so that it runs first when the app closes.
  waitForRequestsOnClose(app, requestsInFlight);

  return app;
}
