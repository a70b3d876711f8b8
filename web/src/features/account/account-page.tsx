import { Box, Typography } from '@mui/material';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useAccount } from './api/account-api';
import { ActivitySection } from './components/activity-section';
import { ChangeEmailSection } from './components/change-email-section';
import { ChangePasswordSection } from './components/change-password-section';
import { ChangePhoneSection } from './components/change-phone-section';
import { LocationsSection } from './components/locations-section';
import { MfaSection } from './components/mfa-section';
import { PasskeysSection } from './components/passkeys-section';
import { ProfileSection } from './components/profile-section';
import { SecurityAnswersSection } from './components/security-answers-section';
import { SessionsSection } from './components/sessions-section';

/**
 * `/account`, My account (docs/requirements/session.md#my-account): profile, email, phone, provider locations and
 * roles, password, security questions, authenticator app and recovery codes, passkeys, sessions and recent activity. Each section loads, fails and
 * succeeds on its own; changes that need a recent login ask for the password through the page's re-auth dialog.
 */
export function AccountPage() {
  useDocumentTitle('My account');
  const account = useAccount();
  return (
    <Box sx={{ maxWidth: 960, mx: 'auto' }}>
      <Typography component="h1" variant="h4" gutterBottom>
        My account
      </Typography>
      <ProfileSection account={account} />
      <ChangeEmailSection account={account} />
      <ChangePhoneSection />
      <LocationsSection account={account} />
      <ChangePasswordSection account={account} />
      <SecurityAnswersSection />
      <MfaSection account={account} />
      <PasskeysSection />
      <SessionsSection />
      <ActivitySection />
    </Box>
  );
}
