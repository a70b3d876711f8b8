import type { AccountStatus, LinkStatus, LocationRole } from '@portal/contracts';
import type { IdentityCheck, OperatorRole, OpsStatusReason } from '@portal/contracts/ops';
import { formatDateTime } from '../../components/layouts/page-section';

/** The words the console uses for the contract's values (docs/requirements/help-desk.md). */

export const roleLabel: Record<OperatorRole, string> = { help_desk: 'Help desk', supervisor: 'Supervisor' };

/** The operator's role as the header shows it: a supervisor also does what the help desk does. */
export const operatorRoleLabel = (roles: readonly OperatorRole[]) =>
  roles.includes('supervisor') ? roleLabel.supervisor : roleLabel.help_desk;

export const accountStatusLabel: Record<AccountStatus, string> = {
  active: 'Active',
  pending: 'Email not verified',
  locked: 'Locked',
  disabled_inactive: 'Disabled for inactivity',
  disabled_admin: 'Disabled',
};

export const locationRoleLabel: Record<LocationRole, string> = { administrator: 'Administrator', user: 'User' };
export const linkStatusLabel: Record<LinkStatus, string> = { active: 'In force', suspended: 'Suspended' };

/** Why a person cannot get in, in a sentence the operator can read out on the phone. */
export function statusReasonText(reason: OpsStatusReason): string {
  const until = reason.until ? formatDateTime(reason.until) : undefined;
  switch (reason.code) {
    case 'locked':
      return until
        ? `Locked after too many wrong passwords or codes, until ${until}.`
        : 'Locked after too many wrong passwords or codes, until someone unlocks it.';
    case 'locked_help_desk':
      return 'Locked after too many wrong passwords in 24 hours: only the help desk can unlock it.';
    case 'disabled_inactive':
      return 'Disabled because nobody logged in to it for a long time.';
    case 'disabled_admin':
      return 'Disabled by an administrator or a supervisor.';
    case 'unverified':
      return 'The email address was never verified, so the account cannot log in yet.';
    case 'mfa_not_set_up':
      return 'Two-step verification is not set up: the next login asks them to set up an authenticator app.';
    case 'no_location_access':
      return 'No provider location access in force (none, or every link suspended for want of recertification).';
  }
}

/** The fixed list of identity facts an MFA reset needs two of, as the checklist names them. */
export const identityCheckLabel: Record<IdentityCheck, string> = {
  date_of_birth: 'Date of birth on the account',
  email_on_file: 'Email address on the account, spelled by the caller',
  callback_phone_on_file: 'Called back at the phone number on the account',
  location_npi_ptan: 'NPI and PTAN of one of their provider locations',
  recent_paid_claim: 'A recent paid claim of one of their locations (claim number and amount)',
  administrator_confirmed: "Their location's administrator confirmed who they are",
};
