import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { ApiForm, ApiFormSummary, useApiForm } from '../form/api-form';
import { CurrentPasswordField } from '../form/form-password-field';
import { ReauthenticateRequest } from '@portal/contracts';
import { reauthenticate } from './reauth-api';

const fieldIds = { password: 'reauth-password' };

/**
 * "Confirm it's you": the password again before an account change when the login is older than the
 * re-authentication window. Labelled by its title; the password field takes focus when it opens, and MUI gives
 * focus back to the control that opened the change when it closes.
 */
export function ReauthDialog({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const form = useApiForm<ReauthenticateRequest>({
    schema: ReauthenticateRequest,
    schemaMessage: () => 'Enter your password.',
    defaultValues: { password: '' },
    fieldIds,
    submit: async (values) => {
      await reauthenticate(values);
      onDone();
    },
    clearOnError: 'password',
  });

  return (
    <Dialog
      open
      onClose={onCancel}
      aria-labelledby="reauth-title"
      aria-describedby="reauth-text"
      // The dialog asks for one thing: the password field takes focus once it has opened.
      slotProps={{ transition: { onEntered: () => form.form.setFocus('password') } }}
    >
      {/* The summary goes under the title, inside the content: <ApiFormSummary>, not the form's top. */}
      <ApiForm form={form} summary={false}>
        <DialogTitle id="reauth-title">Confirm it&apos;s you</DialogTitle>
        <DialogContent>
          <ApiFormSummary form={form} />
          <DialogContentText id="reauth-text">
            For your security, enter your password again before changing your account. Your change is made right after.
          </DialogContentText>
          <CurrentPasswordField id={fieldIds.password} name="password" label="Password" required />
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={form.submitting}>
            Confirm
          </Button>
        </DialogActions>
      </ApiForm>
    </Dialog>
  );
}
