import type { LoggerOptions } from 'pino';

/**
 * pino options shared by the server and its CLIs. Secrets and personal data are redacted wherever they
 * appear in a logged object (research/security-requirements.md H.49); request bodies are never logged.
 */
export const redactPaths = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-webhook-secret"]',
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

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    // The query string may carry identifiers; log the path only.
    serializers: {
      req(req: { method: string; url: string; id: string; ip?: string }) {
        return { method: req.method, path: req.url.split('?')[0], id: req.id, ip: req.ip };
      },
    },
  };
}

/**
 * Requests that get no per-request access lines (incoming/completed): public, cached reads and probes, whose
 * lines would be most of the log and cost a sizeable share of their throughput. Their failures are still logged.
 */
export function isQuietRequest(url: string): boolean {
  return url.startsWith('/api/content/') || url.startsWith('/uploads/') || url.startsWith('/assets/') || url === '/healthz' || url === '/readyz';
}
