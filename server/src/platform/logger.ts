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
