import { Alert, Box, Link, List, ListItem, Paper, Typography } from '@mui/material';
import type { LoginCompletion, PendingLoginStep } from '@portal/contracts';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ContentMarkdown } from '../../components/content-markdown/content-markdown';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session/session-context';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSystemUseNotice } from './api/auth-api';
import { MfaEnrolStep } from './components/mfa-enrol-step';
import { MfaStep } from './components/mfa-step';
import { PasswordChangeStep } from './components/password-change-step';
import { PasswordStep } from './components/password-step';
import { safeNextPath } from './safe-next-path';

type Step = 'password' | PendingLoginStep;

/** The system-use notice (CMS ARS AC-8), from the CMS; without it the form still works. */
function SystemUseNotice() {
  const notice = useSystemUseNotice();
  const text = notice.data?.attributes.NoticeText;
  return (
    <Paper
      component="section"
      aria-labelledby="system-use-notice-title"
      variant="outlined"
      sx={{ p: 2, mb: 3 }}
      data-testid="system-use-notice"
    >
      <Typography component="h2" variant="h6" id="system-use-notice-title">
        System use notice
      </Typography>
      {text ? (
        <ContentMarkdown>{text}</ContentMarkdown>
      ) : notice.isError ? (
        <Alert severity="warning">The system use notice could not be loaded.</Alert>
      ) : null}
    </Paper>
  );
}

const loginHelpLinks = [
  { label: 'Forgot username?', href: paths.forgotUsername.href() },
  { label: 'Forgot password?', href: paths.forgotPassword.href() },
  { label: 'Reactivate my account', href: paths.reactivate.href() },
  { label: 'Find my administrator', href: paths.findAdmin.href() },
];

/** The login-help pages (docs/requirements/portal.md#login-help), below the username and password. */
function LoginHelpLinks() {
  return (
    <Box component="nav" aria-labelledby="login-help-title" sx={{ mt: 4 }}>
      <Typography component="h2" variant="h6" id="login-help-title">
        Login help
      </Typography>
      <List dense disablePadding>
        {loginHelpLinks.map((link) => (
          <ListItem key={link.href} disableGutters>
            <Link component={RouterLink} to={link.href}>
              {link.label}
            </Link>
          </ListItem>
        ))}
      </List>
    </Box>
  );
}

/**
 * `/login` (docs/requirements/session.md#login): the system-use notice, username and password, then the second
 * factor (or, on the first login, the authenticator setup), then a new password if the old one has expired.
 * Afterwards back to `next` (same-site paths only), else to the portal home.
 */
export function LoginPage() {
  useDocumentTitle('Log in');
  const [step, setStep] = useState<Step>('password');
  // Set when the second factor answered that the password has expired: the maximum age, for the explanation.
  const [expiredAfterDays, setExpiredAfterDays] = useState<number>();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { loggedIn, loggedInNow, loginRef } = useSession();
  // Without a `next` (or with one that leaves the site) the login lands on the portal home.
  const next = safeNextPath(searchParams.get('next'), paths.portalHome.href());

  // The session-ended dialog's Login brings the user here to its login element.
  const focusLogin = (location.state as { focusLogin?: boolean } | null)?.focusLogin;
  useEffect(() => {
    if (focusLogin) loginRef.current?.focus();
  }, [focusLogin, loginRef]);

  // Already logged in (e.g. in another tab, or back here from history): nothing to do on this page.
  useEffect(() => {
    if (loggedIn && step === 'password') void navigate(next, { replace: true });
  }, [loggedIn, step, next, navigate]);

  const finish = () => void navigate(next, { replace: true });
  /** The second factor's answer: logged in, or the expired password must be changed first. */
  const secondFactorDone = (completion: LoginCompletion) => {
    if (completion.loggedIn) {
      loggedInNow();
      return true;
    }
    setExpiredAfterDays(completion.passwordMaxAgeDays);
    return false;
  };

  return (
    <Box sx={{ maxWidth: 640, mx: 'auto' }}>
      <Typography component="h1" variant="h4" gutterBottom>
        Log in
      </Typography>
      <SystemUseNotice />
      {step === 'password' && (
        <>
          <PasswordStep onNext={setStep} />
          <Typography sx={{ mt: 3 }}>
            First person from your provider location?{' '}
            <Link component={RouterLink} to={paths.register.href()}>
              Register as an administrator
            </Link>
          </Typography>
          <LoginHelpLinks />
        </>
      )}
      {step === 'mfa' && (
        <MfaStep onDone={(completion) => (secondFactorDone(completion) ? finish() : setStep('password-change'))} />
      )}
      {step === 'mfa-enroll' && (
        <MfaEnrolStep
          onConfirmed={secondFactorDone}
          onDone={() => (expiredAfterDays === undefined ? finish() : setStep('password-change'))}
        />
      )}
      {step === 'password-change' && (
        <PasswordChangeStep
          maxAgeDays={expiredAfterDays}
          onDone={() => {
            loggedInNow();
            finish();
          }}
        />
      )}
    </Box>
  );
}
