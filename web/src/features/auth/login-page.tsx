import { Alert, Box, Button, CircularProgress, Link, List, ListItem, Paper, Skeleton, Typography } from '@mui/material';
import type { LoginCompletion, PendingLoginStep } from '@portal/contracts';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ContentMarkdown } from '../../components/content-markdown/content-markdown';
import { StepHeading } from '../../components/form/step-heading';
import { oneTimeLinkPaths, paths } from '../../config/paths';
import { rememberedInvitationToken } from '../../lib/invitation-token';
import { useErrorMessage } from '../../lib/error-messages';
import { forgetEndedReason, useEndedReason } from '../../lib/session/ended-reason';
import { useSession } from '../../lib/session/session-context';
import { lazyPart } from '../../lib/lazy-part';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useSystemUseNotice } from './api/system-use-notice';
import { safeNextPath } from './safe-next-path';

type Step = 'password' | PendingLoginStep;

// The steps after the password load when they are reached: the page's first download is the password form alone,
// without the passkey (WebAuthn) code, the authenticator setup, the recovery codes or the password checklist.
const MfaStep = lazy(() => import('./components/mfa-step').then((m) => ({ default: m.MfaStep })));
const MfaEnrolStep = lazy(() => import('./components/mfa-enrol-step').then((m) => ({ default: m.MfaEnrolStep })));
const PasswordChangeStep = lazy(() =>
  import('./components/password-change-step').then((m) => ({ default: m.PasswordChangeStep })),
);

// The username and password form is not part of the page's own download either (lib/lazy-part.tsx): its form code
// (react-hook-form, the contracts' schemas and zod, MUI's input parts: about 40 KB gzip) starts loading with the
// page's route module, beside the page's hydration instead of before it, and hydrates on its own
// (docs/decisions/0060).
/** The username and password form; the room it takes while its code loads (a page the server did not render). */
export const passwordStep = lazyPart(() => import('./components/password-step').then((m) => m.PasswordStep), {
  reserve: '15.5rem',
});

const NOTICE_TEXT_ID = 'system-use-notice-text';

/**
 * The system-use notice (CMS ARS AC-8) above the form, shown short — its first lines, in a box of fixed height —
 * with the full text one click away, so the form is on the first screen of a phone and of a 1440 × 900 desktop
 * (docs/decisions/0060). It is in the server's first HTML (the route's
 * `serverQueries`); reached by a link in the app, it fills the same box when it arrives, so nothing moves. Without
 * it the form still works.
 */
function SystemUseNotice() {
  const notice = useSystemUseNotice();
  const text = notice.data?.attributes.NoticeText;
  const [expanded, setExpanded] = useState(false);
  const short = !expanded && !notice.isError;
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
      <Box
        id={NOTICE_TEXT_ID}
        sx={
          short
            ? {
                height: '7.5em',
                overflow: 'hidden',
                maskImage: 'linear-gradient(to bottom, black 55%, transparent)',
                '& > :first-of-type': { mt: 0 },
              }
            : { '& > :first-of-type': { mt: 0 } }
        }
      >
        {text ? (
          <ContentMarkdown>{text}</ContentMarkdown>
        ) : notice.isError ? (
          <Alert severity="warning">The system use notice could not be loaded.</Alert>
        ) : (
          <Skeleton variant="rectangular" height="100%" aria-hidden="true" />
        )}
      </Box>
      {!notice.isError && (
        <Button
          size="small"
          disabled={!text}
          aria-expanded={expanded}
          aria-controls={NOTICE_TEXT_ID}
          onClick={() => setExpanded((value) => !value)}
          sx={{ mt: 1, px: 0 }}
        >
          {expanded ? 'Show less of the notice' : 'Read the full notice'}
        </Button>
      )}
    </Paper>
  );
}

/**
 * The headings of the login steps after the first (the password-change step has its own): each takes the focus
 * when its step appears, so a keyboard or screen reader user starts at the new step instead of the page's top.
 */
const stepHeadings: Partial<Record<Step, string>> = {
  mfa: 'Enter your verification code',
  'mfa-enroll': 'Set up two-step verification',
};

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
 * The one-time-link pages a login must not return to: all of them, but the invitation page while this tab still holds
 * its invitation (its "I already have an account" comes back to accept it).
 */
function loginDeadEnds(): readonly string[] {
  return rememberedInvitationToken()
    ? oneTimeLinkPaths.filter((path) => path !== paths.invitation.path)
    : oneTimeLinkPaths;
}

/**
 * `/login` (docs/requirements/session.md#login): username and password, then the second factor (or, on the first
 * login, the authenticator setup), then a new password if the old one has expired. Afterwards back to `next`
 * (same-site paths only), else to the portal home. The system-use notice stays above the form at every step, shown
 * short.
 */
export function LoginPage() {
  useDocumentTitle('Log in');
  const [step, setStep] = useState<Step>('password');
  // Set when the second factor answered that the password has expired: the maximum age, for the explanation.
  const [expiredAfterDays, setExpiredAfterDays] = useState<number>();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { loggedIn, loggedInNow } = useSession();
  // Without a `next` (or with one that leaves the site, or a page whose emailed link is gone) the login lands on the
  // portal home.
  const next = safeNextPath(searchParams.get('next'), paths.portalHome.href(), loginDeadEnds());

  // The session-ended dialog's Login brings the user here to its login element (the password step focuses it).
  const focusLogin = (location.state as { focusLogin?: boolean } | null)?.focusLogin === true;

  // Already logged in (e.g. in another tab, or back here from history): nothing to do on this page.
  useEffect(() => {
    if (loggedIn && step === 'password') void navigate(next, { replace: true });
  }, [loggedIn, step, next, navigate]);

  // Someone else ended this tab's last session: why, above the form, until a login succeeds.
  const ended = useEndedReason();
  useEffect(() => {
    if (loggedIn) forgetEndedReason();
  }, [loggedIn]);
  const endedText = useErrorMessage(ended).data;

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
      {ended && endedText && step === 'password' && (
        <Alert severity="warning" role="status" sx={{ mb: 2 }} data-testid="login-session-ended">
          {endedText}
        </Alert>
      )}
      <SystemUseNotice />
      {stepHeadings[step] && (
        <StepHeading key={step} focus>
          {stepHeadings[step]}
        </StepHeading>
      )}
      {step === 'password' && (
        <>
          <passwordStep.Part onNext={setStep} focusLogin={focusLogin} />
          <Typography sx={{ mt: 3 }}>
            First person from your provider location?{' '}
            <Link component={RouterLink} to={paths.register.href()}>
              Register as an administrator
            </Link>
          </Typography>
          <Typography sx={{ mt: 1 }}>
            Work for a location that has an administrator?{' '}
            <Link component={RouterLink} to={paths.registerUser.href()}>
              Register as a user
            </Link>
          </Typography>
          <LoginHelpLinks />
        </>
      )}
      <Suspense fallback={<CircularProgress aria-label="Loading the next step" />}>
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
      </Suspense>
    </Box>
  );
}
