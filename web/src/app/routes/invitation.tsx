import { InvitationPage } from '../../features/invitation/invitation-page';

/** Opened from the invitation email, logged in or not: the page itself offers the login. */
export function InvitationRoute() {
  return <InvitationPage />;
}
