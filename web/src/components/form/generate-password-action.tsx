import { AUTH_ROUTES } from '@portal/contracts/paths';
import { Alert, Box, Button, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useApiErrorText } from '../../lib/use-api-error-text';

/**
 * `POST /api/password/generate/get` (docs/requirements/api.md): a random password that passes the policy. The HTTP
 * client and the answer's schema load with the call, not with the form's page.
 */
export const generatePassword = async () => {
  const [{ apiRequest }, { GeneratedPassword }] = await Promise.all([
    import('../../lib/api-client'),
    import('@portal/contracts/password-policy'),
  ]);
  return apiRequest(AUTH_ROUTES.generatePassword, { method: 'POST', body: {}, schema: GeneratedPassword });
};

/**
 * The optional 'Generate a password' action: asks the server for a password, hands it to `onGenerated` (which fills
 * the password and its confirmation) and shows it, so the user can save it before going on. The answer is a status
 * message, so a screen reader reads it without moving focus.
 */
export function GeneratePasswordAction({ id, onGenerated }: { id: string; onGenerated: (password: string) => void }) {
  const mutation = useMutation({ mutationFn: generatePassword, onSuccess: ({ password }) => onGenerated(password) });
  const errorText = useApiErrorText(mutation.error ?? undefined);
  return (
    <Box sx={{ my: 1 }}>
      <Button variant="outlined" onClick={() => mutation.mutate()} disabled={mutation.isPending}>
        Generate a password
      </Button>
      <Box id={`${id}-result`} role="status" sx={{ mt: 1 }}>
        {mutation.data && (
          <Alert severity="info">
            Your generated password is{' '}
            <Typography
              component="code"
              data-testid="generated-password"
              sx={{ fontFamily: 'monospace', fontWeight: 700, wordBreak: 'break-all' }}
            >
              {mutation.data.password}
            </Typography>
            . Save it in your password manager or write it down and keep it safe; it has been filled in for you.
          </Alert>
        )}
        {mutation.isError && errorText && <Alert severity="error">{errorText}</Alert>}
      </Box>
    </Box>
  );
}
