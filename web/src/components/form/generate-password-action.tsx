import { AUTH_ROUTES } from '@portal/contracts/paths';
import { Alert, Box, Button } from '@mui/material';
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
 * the password and its confirmation) and says so; the password is read with the field's Show button, never shown in
 * the message. The answer is a status message, so a screen reader reads it without moving focus.
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
          // Never the password itself in clear (it would sit on screen for anyone to read): the fields' Show button
          // reveals it to the person who asked.
          <Alert severity="info" data-testid="generated-password-status">
            A strong password was generated and filled in for you. Select &quot;Show password&quot; to read it, and save
            it in your password manager or write it down and keep it safe.
          </Alert>
        )}
        {mutation.isError && errorText && <Alert severity="error">{errorText}</Alert>}
      </Box>
    </Box>
  );
}
