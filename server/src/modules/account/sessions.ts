import { ACTIVITY_PAGE_SIZE, type AccountSession, type ActivityItem } from '@portal/contracts/account';
import Bowser from 'bowser';
import { and, desc, eq, ne, or } from 'drizzle-orm';
import { auditEvents, sessions } from '../../db/schema';
import { audit, type ServiceContext } from '../../identity/service-context';
import { endAllSessions, isExpired, type LoadedSession } from '../../identity/sessions/store';

/** My account's sessions and recent activity (docs/requirements/session.md#my-account). */

/** A readable browser and system from a User-Agent header, e.g. `Chrome 131 on Windows`. */
export function describeBrowser(userAgent: string | null): string {
  if (!userAgent) return 'Unknown browser';
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name;
  const major = parsed.browser.version?.split('.')[0];
  const os = parsed.os.name;
  if (!browser) return os ? `Unknown browser on ${os}` : 'Unknown browser';
  return `${browser}${major ? ` ${major}` : ''}${os ? ` on ${os}` : ''}`;
}

/** `GET /api/account/sessions`: the user's logged-in sessions, this one first, then by last activity. */
export async function listSessions(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'config'>,
  session: LoadedSession,
): Promise<AccountSession[]> {
  const rows = await ctx.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, session.userId), eq(sessions.stage, 'active')))
    .orderBy(desc(sessions.lastSeenAt));
  const now = ctx.now();
  return rows
    .filter((row) => !isExpired(row, now, ctx.config.sessions))
    .map((row) => ({
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: (row.idHash === session.idHash ? session.lastSeenAt : row.lastSeenAt).toISOString(),
      ip: row.ip,
      browser: describeBrowser(row.userAgent),
      current: row.idHash === session.idHash,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** `POST /api/account/sessions/end-others`: sign out everywhere else. */
export async function endOtherSessions(
  ctx: Pick<ServiceContext, 'db' | 'now' | 'config' | 'client'>,
  session: LoadedSession,
): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    // The count the user is told is of the sessions the list showed them (logged in, not expired), so the dialog's
    // "your other session" is never followed by "2 other sessions"; half-finished logins and expired rows go too.
    const now = ctx.now();
    const shown = (
      await tx
        .select({ idHash: sessions.idHash, lastSeenAt: sessions.lastSeenAt, expiresAt: sessions.expiresAt })
        .from(sessions)
        .where(
          and(eq(sessions.userId, session.userId), eq(sessions.stage, 'active'), ne(sessions.idHash, session.idHash)),
        )
    ).filter((row) => !isExpired(row, now, ctx.config.sessions)).length;
    await endAllSessions(tx, session.userId, { exceptIdHash: session.idHash, reason: 'sign_out_everywhere' });
    const ended = shown;
    await audit(ctx, tx, {
      actor: session.userId,
      target: session.userId,
      action: 'sessions.ended_others',
      outcome: 'success',
      details: { sessionCount: ended },
    });
    return ended;
  });
}

/** Audit actions in words; `[success, failure]`. Unknown actions fall back to a generic text. */
const ACTIVITY_TEXT: Record<string, readonly [string, string]> = {
  'login.password': ['Password accepted at login', 'Failed login'],
  'login.mfa': ['Logged in', 'Login not completed'],
  'login.failed': ['Logged in', 'Failed login attempt'],
  'login.mfa_failed': ['Second step accepted', 'Wrong code or passkey at login'],
  logout: ['Logged out', 'Logged out'],
  'account.locked': ['Account locked after failed logins', 'Account locked after failed logins'],
  'mfa.enrol_started': ['Authenticator app setup started', 'Authenticator app setup failed'],
  'mfa.enrolled': ['Authenticator app set up', 'Authenticator app setup failed'],
  'mfa.reset_started': ['Authenticator app replacement started', 'Authenticator app replacement failed'],
  'mfa.reset': [
    'Authenticator app replaced, new recovery codes issued, passkeys removed',
    'Authenticator app replacement failed',
  ],
  'mfa.recovery_codes': ['New recovery codes made', 'New recovery codes could not be made'],
  reauthenticate: ['Password confirmed', 'Password confirmation failed'],
  'password.change': ['Password changed', 'Password change refused (wrong current password)'],
  'password.changed': ['Password changed', 'Password change failed'],
  'passkey.added': ['Passkey added', 'Passkey could not be added'],
  'passkey.renamed': ['Passkey renamed', 'Passkey could not be renamed'],
  'passkey.removed': ['Passkey removed', 'Passkey could not be removed'],
  'sessions.ended_others': ['Signed out of all other sessions', 'Signing out of other sessions failed'],
  'tokens.revoked': [
    'Emailed links and codes, and any email address change not yet confirmed, cancelled',
    'Emailed links and codes could not be cancelled',
  ],
  'email.change_requested': ['Email address change asked for', 'Email address change refused'],
  'email.changed': ['Email address changed', 'Email address change link refused'],
  'phone.changed': ['Phone number changed', 'Phone number change failed'],
  'security_answers.changed': ['Security questions changed', 'Security questions change failed'],
  // Every other action a user's events can carry is named too: "Account activity" said nothing (issue 22).
  'account.disabled-inactive': ['Account disabled after a long time without a login', 'Account disabling failed'],
  // Annual recertification (docs/requirements/staff-accounts.md#annual-recertification): the person's side.
  'recertification.kept': ['Access to a provider location recertified', 'Recertification refused'],
  'recertification.removed': ['Access to a provider location removed at recertification', 'Recertification refused'],
  'recertification.lapsed': ['Access to a provider location suspended: not recertified in time', 'Suspension failed'],
  'recertification.submit': ['Recertification decisions submitted', 'Recertification decisions refused'],
  'account.reactivation': ['Account reactivation step completed', 'Account reactivation step refused'],
  'login-help.forgot-username': ['Username reminder emailed', 'Username reminder not sent'],
  'login-help.forgot-password': ['Password reset link emailed', 'Password reset link not sent'],
  'login-help.reset-password': ['Password reset from the emailed link', 'Password reset refused'],
  'registration.submit': ['Registered as a location administrator', 'Registration refused'],
  'registration.verify-email': ['Email address confirmed', 'Email confirmation link refused'],
  'registration.verify-email.resend': ['Email confirmation link sent again', 'Email confirmation link not sent'],
  'dde.submit': ['DDE access request sent', 'DDE access request refused'],
  'dde.easi': ['DDE enrollment details viewed', 'DDE enrollment details refused'],
  // A location administrator's actions (docs/requirements/staff-accounts.md): the person acted on sees them, and so
  // does the administrator, hence the neutral wording.
  'admin.request.approve': ['Access request approved by a location administrator', 'Access request approval refused'],
  'admin.request.deny': ['Access request denied by a location administrator', 'Access request denial refused'],
  'admin.person.role': [
    'Role at a provider location changed by a location administrator',
    'Role change at a provider location refused',
  ],
  'admin.person.remove': [
    'Removed from a provider location by a location administrator',
    'Removal from a provider location refused',
  ],
  'admin.person.disable': ['Account disabled by a location administrator', 'Account disabling refused'],
  'admin.person.enable': ['Account enabled again by a location administrator', 'Account enabling refused'],
  'admin.person.unlock': ['Account unlocked by a location administrator', 'Account unlocking refused'],
  'admin.person.reset-mfa': [
    'Authenticator app, recovery codes and passkeys reset by a location administrator',
    'Second-factor reset refused',
  ],
  // The actions routes declare (route-audit.ts): the platform writes them for a refusal no service recorded, e.g. a
  // wrong setup code or a form the schema refused (a test walks the route table for them).
  'mfa.enrol': ['Authenticator app setup step completed', 'Authenticator app setup step refused'],
  'login.passkey-options': ['Passkey login started', 'Passkey login could not start'],
  'passkey.registration-options': ['Passkey setup started', 'Passkey setup could not start'],
  'location.find-admin': ['Location administrator looked up', 'Location administrator lookup refused'],
  'location.find-admin-contact': [
    'Message sent to a location administrator',
    'Message to a location administrator refused',
  ],
  'registration.provider': ['Registration: provider details checked', 'Registration: provider details refused'],
  'registration.authority': ['Registration: signing authority checked', 'Registration: signing authority refused'],
  'registration.user': ['Registered as a user of provider locations', 'Registration refused'],
  'access-request.create': ['Access to a provider location requested', 'Access request refused'],
  'access-request.withdraw': ['Access request withdrawn', 'Access request withdrawal refused'],
  // Invitations (docs/requirements/staff-accounts.md#invitations).
  'invitation.sent': ['Invitation to a provider location sent', 'Invitation to a provider location not sent'],
  'invitation.revoked': ['Invitation to a provider location withdrawn', 'Invitation could not be withdrawn'],
  'location.access-restored': [
    'Provider location access restored by the help desk',
    'Provider location access restore refused',
  ],
  'invitation.accepted': ['Invitation accepted: provider location added', 'Invitation refused'],
  // The help desk's console (docs/requirements/help-desk.md): what it did to the person, and its own steps.
  'ops.person.unlock': ['Unlocked by the help desk', 'Help-desk unlock refused'],
  'ops.person.end-sessions': ['Sessions ended by the help desk', 'Help-desk end of sessions refused'],
  'ops.person.resend-verification': ['Verification email sent again by the help desk', 'Help-desk resend refused'],
  'ops.person.reset-mfa': ['Two-step verification reset by the help desk', 'Help-desk MFA reset refused'],
  'ops.person.disable': ['Disabled by the help desk', 'Help-desk disable refused'],
  'ops.person.enable': ['Enabled by the help desk', 'Help-desk enable refused'],
  'ops.person.reveal': ['Contact details viewed by the help desk', 'Help-desk view refused'],
  'ops.person.view': ['Account viewed by the help desk', 'Help-desk view refused'],
  'ops.location.restore-administrator': [
    'Made administrator by the help desk',
    'Help-desk administrator restore refused',
  ],
  'ops.location.view': ['Provider location viewed by the help desk', 'Help-desk location view refused'],
  'ops.search': ['Help-desk search', 'Help-desk search refused'],
  'ops.session': ['Help-desk session read', 'Help-desk session refused'],
  'ops.session.keep-alive': ['Help-desk session kept alive', 'Help-desk session refused'],
  'ops.sign-in': ['Help-desk sign-in', 'Help-desk sign-in refused'],
  'ops.sign-out': ['Help-desk sign-out', 'Help-desk sign-out refused'],
};

const METHOD_TEXT: Record<string, string> = {
  totp: 'with an authenticator code',
  passkey: 'with a passkey',
  recovery_code: 'with a recovery code',
};

/** An audit event in words. Only the action, outcome and method are read: never the other details. */
export function describeActivity(action: string, outcome: 'success' | 'failure', method?: unknown): string {
  const text = ACTIVITY_TEXT[action]?.[outcome === 'success' ? 0 : 1];
  if (!text) return outcome === 'success' ? 'Account activity' : 'Account activity (failed)';
  if (action === 'login.mfa' && outcome === 'success' && typeof method === 'string' && METHOD_TEXT[method])
    return `${text} ${METHOD_TEXT[method]}`;
  return text;
}

/** `GET /api/account/activity`: the user's audit events (as actor or target), newest first, a page at a time. */
export async function accountActivity(
  ctx: Pick<ServiceContext, 'db'>,
  userId: string,
  page: number,
): Promise<{ items: ActivityItem[]; page: number; pageSize: number; hasMore: boolean }> {
  const rows = await ctx.db
    .select({
      at: auditEvents.at,
      action: auditEvents.action,
      outcome: auditEvents.outcome,
      ip: auditEvents.ip,
      details: auditEvents.details,
    })
    .from(auditEvents)
    .where(or(eq(auditEvents.actor, userId), eq(auditEvents.target, userId)))
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(ACTIVITY_PAGE_SIZE + 1)
    .offset((page - 1) * ACTIVITY_PAGE_SIZE);
  const items = rows.slice(0, ACTIVITY_PAGE_SIZE).map((row) => ({
    at: row.at.toISOString(),
    action: row.action,
    description: describeActivity(row.action, row.outcome, row.details?.method),
    outcome: row.outcome,
    ip: row.ip,
  }));
  return { items, page, pageSize: ACTIVITY_PAGE_SIZE, hasMore: rows.length > ACTIVITY_PAGE_SIZE };
}
