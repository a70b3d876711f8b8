import type { FastifyBaseLogger } from 'fastify';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import {
  stdSerializers,
  type Bindings,
  type ChildLoggerOptions,
  type LevelWithSilentOrString,
  type LoggerOptions,
} from 'pino';
import pinoPretty, { type PrettyStream } from 'pino-pretty';
import { WEBHOOK_SECRET_HEADER } from '@portal/contracts/http';

/**
 * pino options shared by the server and its CLIs. Secrets and personal data are redacted wherever they
 * appear in a logged object (docs/requirements/platform.md#operations); request bodies are never logged.
 */
export const redactPaths = [
  'req.headers.cookie',
  'req.headers.authorization',
  `req.headers["${WEBHOOK_SECRET_HEADER.toLowerCase()}"]`,
  'res.headers["set-cookie"]',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.otp',
  '*.code',
  '*.token',
  '*.registrationToken',
  '*.validationToken',
  '*.secret',
  '*.tin',
  '*.ssn',
  '*.dob',
  '*.answer',
  '*.answers',
  '*.email',
  '*.patientMedicareNumber',
  'config.sessionSecret',
  'config.encryptionKey',
  'config.cms.token',
  'config.cms.webhookSecret',
  'config.databaseUrl',
];

/** The facts of a database error worth logging; its `detail` (which quotes the row's values) is left out. */
function databaseCause(cause: unknown) {
  if (!cause || typeof cause !== 'object') return undefined;
  const { name, message, code, constraint, table, column, routine } = cause as Record<string, unknown>;
  return { name, message, code, constraint, table, column, routine };
}

/**
 * Errors as logged. A failed query's message lists its bound parameters (passwords' hashes, dates of birth, email
 * addresses, tokens): only the SQL text, the stack frames and the database's error code and constraint are kept.
 */
export function serializeError(err: unknown) {
  if (!(err instanceof DrizzleQueryError)) return stdSerializers.err(err as Error);
  const frames = (err.stack ?? '').split('\n').filter((line) => line.startsWith('    at '));
  return {
    type: 'DrizzleQueryError',
    message: `Failed query: ${err.query}`,
    stack: [`DrizzleQueryError: Failed query: ${err.query}`, ...frames].join('\n'),
    cause: databaseCause(err.cause),
  };
}

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    // The query string may carry identifiers; log the path only.
    serializers: {
      err: serializeError,
      req(req: { method: string; url: string; id: string; ip?: string }) {
        return { method: req.method, path: req.url.split('?')[0], id: req.id, ip: req.ip };
      },
    },
  };
}

export type LogFormat = 'json' | 'pretty';

/**
 * Where log lines go. `json` (the default, and what production, log collectors and tests read): pino's own stdout
 * destination, so this answers undefined. `pretty` (set by `npm start` outside production): one readable line per
 * event through pino-pretty, in this process and synchronously, so that the last lines before an exit are not lost.
 */
export function logDestination(
  format: LogFormat,
  destination: NodeJS.WritableStream | number = 1,
): PrettyStream | undefined {
  if (format === 'json') return undefined;
  // `req.id` repeats the line's `requestId`.
  return pinoPretty({
    destination,
    sync: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,req.id',
  });
}

/**
 * Requests that get no per-request access lines (incoming/completed): public, cached reads and probes, whose
 * lines would be most of the log and cost a sizeable share of their throughput. Their failures are still logged.
 */
export function isQuietRequest(url: string): boolean {
  return (
    url.startsWith('/api/content/') ||
    url.startsWith('/uploads/') ||
    url.startsWith('/assets/') ||
    url === '/healthz' ||
    url === '/readyz'
  );
}

/** A pino log method called with whatever arguments it was given (pino's overloads cannot be spread through). */
type AnyLogFn = (...args: unknown[]) => void;

/**
 * Fastify `childLoggerFactory`: the per-request logger (bound to the request id) is created on its first use. A
 * pino child serialises and redacts its bindings when created (about 2 µs of CPU, measured in decision 0010), and
 * quiet requests (cached content) log nothing, so most of them never need one. A class, so that a request costs
 * one small object and no closures. It implements the whole `FastifyBaseLogger` interface, which the compiler
 * checks; `logger.test.ts` calls every member of it.
 */
class LazyChildLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}
  private get real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }
  get level(): LevelWithSilentOrString {
    return (this.#child ?? this.parent).level;
  }
  set level(value: LevelWithSilentOrString) {
    this.real.level = value;
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
  fatal(...args: unknown[]) {
    (this.real.fatal as AnyLogFn)(...args);
  }
  error(...args: unknown[]) {
    (this.real.error as AnyLogFn)(...args);
  }
  warn(...args: unknown[]) {
    (this.real.warn as AnyLogFn)(...args);
  }
  info(...args: unknown[]) {
    (this.real.info as AnyLogFn)(...args);
  }
  debug(...args: unknown[]) {
    (this.real.debug as AnyLogFn)(...args);
  }
  trace(...args: unknown[]) {
    (this.real.trace as AnyLogFn)(...args);
  }
  /** pino's `silent` level method does nothing either. */
  silent() {}
}

export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options);
}
