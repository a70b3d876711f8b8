import { Alert, Box, Button, Chip, Container, Link, Paper, Typography } from '@mui/material';
import { OPS_SIGN_IN_REFUSAL_PARAM, opsSignInRefusals } from '@portal/contracts/ops-routes';
import { OPS_PAGE_PATHS } from '@portal/contracts/paths';
import { Outlet, useLocation } from 'react-router';
import { SiteHeader, SkipLink } from '../../components/layouts/header-parts';
import { SectionSkeleton } from '../../components/layouts/page-section';
import { ApiError } from '../../lib/api-error';
import { useApiErrorText } from '../../lib/use-api-error-text';
import { useDocumentTitle } from '../../lib/use-document-title';
import { signInHref } from './api/ops-api';
import { operatorRoleLabel } from './ops-text';
import { OpsSessionProvider, useOpsSession } from './ops-session';
import { lazyDialog } from '../../components/dialogs/lazy-dialog';

// The idle warning (a dialog, two minutes before the session ends) loads once signed in, after the page (issue 39).
const IdleWarning = lazyDialog(() => import('./components/idle-warning').then((m) => m.IdleWarning));

/**
 * `/ops`, the contractor's help-desk console (docs/requirements/help-desk.md): its own header (the operator's name and
 * role, Sign out) and session, never the portal's. Signed out, the page offers the directory's sign-in; signed in, it
 * shows the console's pages and warns before the session's 15 idle minutes run out. Desktop-first (the desk works at
 * 1440 px), usable on a phone.
 */
export function OpsLayout() {
  return (
    <OpsSessionProvider>
      <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
        <SkipLink />
        <OpsHeader />
        <Container
          component="main"
          id="main-content"
          tabIndex={-1}
          maxWidth="lg"
          sx={{ flexGrow: 1, py: { xs: 2, sm: 3 }, outline: 'none' }}
        >
          <OpsContent />
        </Container>
      </Box>
    </OpsSessionProvider>
  );
}

function OpsHeader() {
  const { state, signOut } = useOpsSession();
  return (
    <SiteHeader
      home={OPS_PAGE_PATHS.console}
      name="Provider contact center"
      line="Medicare Provider Portal · help-desk console"
      toolbarSx={{ gap: { xs: 1, sm: 2 } }}
    >
      {state.kind === 'signed-in' && (
        <Box
          sx={{ display: 'flex', alignItems: 'center', gap: { xs: 1, sm: 2 }, flexWrap: 'wrap' }}
          data-testid="ops-operator"
        >
          <Typography component="span" sx={{ fontWeight: 700 }}>
            {state.operator.name}
          </Typography>
          <Chip
            label={operatorRoleLabel(state.operator.roles)}
            size="small"
            sx={{ bgcolor: 'secondary.main', color: 'secondary.contrastText', fontWeight: 700 }}
          />
          <Button color="inherit" variant="outlined" onClick={() => void signOut()}>
            Sign out
          </Button>
        </Box>
      )}
    </SiteHeader>
  );
}

function OpsContent() {
  const { state } = useOpsSession();
  switch (state.kind) {
    case 'checking':
      return <SectionSkeleton label="Checking your console sign-in" lines={4} />;
    case 'signed-out':
      return <SignIn signedOut={state.chosen ? { directorySignOut: state.directorySignOut ?? null } : undefined} />;
    case 'ended':
      return <SignIn endedCode={state.code} />;
    case 'signed-in':
      return (
        <>
          <Outlet />
          <IdleWarning />
        </>
      );
  }
}

/** The refusal a sign-in came back with (`/ops?signIn=…`), if it is one the contract names. */
function useSignInRefusal(): string | undefined {
  const { search } = useLocation();
  const value = new URLSearchParams(search).get(OPS_SIGN_IN_REFUSAL_PARAM);
  return opsSignInRefusals.find((code) => code === value);
}

/**
 * Signed out: contractor staff sign in through the enterprise directory, never with a portal password. After a
 * refused sign-in, or once the session has ended, the reason comes first.
 */
function SignIn({
  endedCode,
  signedOut,
}: {
  endedCode?: string;
  /** After a chosen sign-out: the directory's session is still open (a shared desk's next user would be signed in). */
  signedOut?: { directorySignOut: string | null };
}) {
  useDocumentTitle('Help-desk console sign-in');
  const { pathname, search } = useLocation();
  const refusal = useSignInRefusal();
  const code = endedCode ?? refusal;
  const reason = useApiErrorText(code ? new ApiError(401, code) : undefined);
  // Back to the page asked for, without the refusal that brought them here.
  const returnTo = refusal ? OPS_PAGE_PATHS.console : `${pathname}${search}`;
  return (
    <Paper variant="outlined" sx={{ maxWidth: 640, mx: 'auto', p: { xs: 2, sm: 4 } }}>
      <Typography component="h1" variant="h4" gutterBottom>
        Help-desk console
      </Typography>
      {/* Once its text is here (the CMS's, for the code): never an empty alert. */}
      {code && reason && (
        <Alert severity={endedCode ? 'warning' : 'error'} sx={{ mb: 2 }} data-testid="ops-sign-in-reason">
          {reason}
        </Alert>
      )}
      {signedOut && (
        <Alert severity="success" sx={{ mb: 2 }} data-testid="ops-signed-out">
          You signed out of the help-desk console.
          {signedOut.directorySignOut && (
            <>
              {' '}
              You are still signed in to the contractor directory:{' '}
              <Link href={signedOut.directorySignOut}>sign out of the directory too</Link>.
            </>
          )}
        </Alert>
      )}
      <Typography sx={{ mb: 3 }}>
        For the contractor&apos;s help desk and its supervisors. Sign in with your contractor account through the
        enterprise directory; the console never asks for a portal password.
      </Typography>
      <Button variant="contained" size="large" href={signInHref(returnTo)}>
        Sign in with the contractor directory
      </Button>
    </Paper>
  );
}
