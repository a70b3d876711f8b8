import { Box, Button, Link, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router';
import { ResendVerificationForm } from '../../../components/verification/resend-verification-form';
import { paths } from '../../../config/paths';

/** A location the person asked for, as the approval note names it: its name and its administrators' names. */
export interface ApprovalNote {
  location: string;
  administrators: string[];
}

/**
 * The last step of a self-registration: what happens next. The email comes first: nothing else works until its link
 * is used. `approvals` (the end user's registration): who must approve each location asked for.
 */
export function DoneStep({
  email,
  approvals,
  active = false,
}: {
  email: string;
  approvals?: ApprovalNote[];
  /** The account is active already: the invitation's link, sent to `email`, proved the address. */
  active?: boolean;
}) {
  const approvalsItem = approvals && approvals.length > 0 && (
    <li data-testid="registration-approvals">
      An administrator of each location must approve your access before you can use it:
      <Box component="ul" sx={{ pl: 3, mt: 1 }}>
        {approvals.map((approval) => (
          <li key={approval.location}>
            {approval.location}:{' '}
            {approval.administrators.length
              ? `approved by ${approval.administrators.join(', ')} (its administrator${approval.administrators.length > 1 ? 's' : ''})`
              : 'it has no administrator yet, so nobody can approve it until one registers'}
          </li>
        ))}
      </Box>
    </li>
  );
  if (active)
    return (
      <Box data-testid="registration-done">
        <Typography sx={{ mb: 2 }}>
          Your account is created and ready: the invitation we sent to <strong>{email}</strong> proved your address, so
          there is no other email to confirm. You can log in now.
        </Typography>
        <Box component="ol" sx={{ pl: 3, '& li': { mb: 1 } }}>
          <li>Log in with your username and password.</li>
          <li>
            At your first login you set up an authenticator app (multi-factor authentication) and save your recovery
            codes.
          </li>
          <li>The invited provider location is on your account already.</li>
          {approvalsItem}
        </Box>
        <Button component={RouterLink} to={paths.login.href()} variant="contained">
          Log in
        </Button>
      </Box>
    );
  return (
    <Box data-testid="registration-done">
      <Typography sx={{ mb: 2 }}>
        Your account is created. We sent an email to <strong>{email}</strong> with a link to verify your address.
      </Typography>
      <Box component="ol" sx={{ pl: 3, '& li': { mb: 1 } }}>
        <li>Open the email and select the link within 72 hours. Without it the registration is removed.</li>
        <li>Then log in with your username and password.</li>
        <li>
          At your first login you set up an authenticator app (multi-factor authentication) and save your recovery
          codes.
        </li>
        {approvalsItem}
      </Box>
      <Typography sx={{ mb: 1 }}>No email after a few minutes? Check your spam folder, or send a new link.</Typography>
      <ResendVerificationForm id="register-resend-email" />
      <Typography sx={{ mt: 3 }}>
        Already used the link?{' '}
        <Link component={RouterLink} to={paths.login.href()}>
          Log in
        </Link>
      </Typography>
    </Box>
  );
}
