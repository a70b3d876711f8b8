import { Alert, Box, Button, CircularProgress, Link, Typography } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { FormOutcome } from '../../components/form/form-outcome';
import { paths } from '../../config/paths';
import { lazyPart } from '../../lib/lazy-part';
import { useApiErrorText } from '../../lib/use-api-error-text';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useEasiLocations } from './api/dde-access-api';

/**
 * The request form hydrates on its own (lib/lazy-part.tsx): its fields, validation and form library load beside the
 * page, not before it (issue 39); the server draws it with the locations it reads for the session.
 */
export const ddeRequestForm = lazyPart(() => import('./dde-request-form').then((m) => m.DdeRequestForm), {
  reserve: '100vh',
});

/**
 * `/dde-access` (docs/requirements/portal.md#dde-access-request), for logged-in users: one of their locations,
 * pre-filled from its enrollment facts, sent with an idempotency key; the answer is a reference number.
 */
export function DdeAccessPage() {
  useDocumentTitle('Request DDE access');
  const easi = useEasiLocations();
  const errorText = useApiErrorText(easi.error ?? undefined);
  const [referenceNumber, setReferenceNumber] = useState<string>();
  const [formKey, setFormKey] = useState(0);

  let body;
  if (referenceNumber)
    body = (
      <FormOutcome title="Request sent">
        <Typography gutterBottom>
          Your reference number is{' '}
          <Box component="strong" data-testid="dde-reference" sx={{ whiteSpace: 'nowrap' }}>
            {referenceNumber}
          </Box>
          . We emailed a confirmation to the address on your account.
        </Typography>
        <Typography component="h3" sx={{ fontWeight: 700, mt: 2 }}>
          What happens next
        </Typography>
        <Box component="ul" sx={{ mt: 0.5, pl: 3 }} data-testid="dde-next-steps">
          <li>Our EDI team reviews the request and checks it against the location&apos;s enrollment.</li>
          <li>We email you when access is granted, changed or removed, or if we need more from you.</li>
          <li>Quote the reference number if you contact the provider contact center about it.</li>
        </Box>
        <Button
          variant="outlined"
          onClick={() => {
            setReferenceNumber(undefined);
            setFormKey((k) => k + 1);
          }}
        >
          Send another request
        </Button>
      </FormOutcome>
    );
  else if (easi.isPending)
    // The form's room is kept while the locations load (the page is server-rendered without them), so the footer
    // does not jump when the form arrives (docs/decisions/0060). A screen's height:
    // the form, with its counter and notes, is taller than 60vh, and the footer then moved (CLS 0.021 at 1440 px).
    body = (
      <Box sx={{ minHeight: '100vh' }}>
        <CircularProgress aria-label="Loading your provider locations" />
      </Box>
    );
  else if (easi.isError) body = <Alert severity="error">{errorText}</Alert>;
  else if (easi.data.locations.length === 0)
    body = (
      <Alert severity="info">
        Your account is not linked to a provider location yet. Ask the location&apos;s administrator to add you (
        <Link component={RouterLink} to={paths.findAdmin.href()}>
          find my administrator
        </Link>
        ).
      </Alert>
    );
  else body = <ddeRequestForm.Part key={formKey} locations={easi.data.locations} onSent={setReferenceNumber} />;

  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <Typography component="h1" variant="h4" gutterBottom>
        Request DDE access
      </Typography>
      <Typography sx={{ mb: 2 }}>
        Direct data entry (DDE) lets your office check eligibility and claims, and enter claims, online. Choose the
        location, check the details we have on file, and send the request.
      </Typography>
      {body}
    </Box>
  );
}
