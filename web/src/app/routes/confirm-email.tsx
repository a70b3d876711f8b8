import { ConfirmEmailPage } from '../../features/account/confirm-email-page';

/** Opened from the email, logged in or not: no login is asked for. */
export function ConfirmEmailRoute() {
  return <ConfirmEmailPage />;
}
