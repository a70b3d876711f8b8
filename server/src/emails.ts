// Every feature's email templates. Each feature defines its own in its `emails.ts`, which registers them with
// platform/mail/registry.ts; importing them all here lets the outbox sender and the mail viewer render any email a
// feature queued, whichever features a process has loaded (app.ts imports this file).
import './identity/emails';
import './modules/account/emails';
import './modules/admin/emails';
import './modules/auth/emails';
import './modules/dde-access/emails';
import './modules/find-admin/emails';
import './modules/invitations/emails';
import './modules/login-help/emails';
import './modules/ops/emails';
import './modules/passkeys/emails';
import './modules/recertification/emails';
import './modules/registration/emails';

export { renderEmail } from './platform/mail/registry';
