import type { AuditCounter } from '../platform/metrics';

/**
 * The audit actions of the account rules that operators watch as Prometheus counters: failed login steps, and
 * lockouts of accounts and of provider locations (docs/decisions/0033-openapi-metrics-deployment.md).
 */
export const ACCOUNT_AUDIT_COUNTERS: readonly AuditCounter[] = [
  {
    name: 'portal_login_failures_total',
    help: 'Failed login steps (audit events login.failed and login.mfa_failed), by step.',
    label: 'step',
    actions: { 'login.failed': 'password', 'login.mfa_failed': 'mfa' },
  },
  {
    name: 'portal_lockouts_total',
    help: 'Lockouts: accounts locked after failed logins, provider locations after failed authority checks.',
    label: 'kind',
    actions: { 'account.locked': 'account', 'registration.authority.locked': 'authority' },
  },
];
