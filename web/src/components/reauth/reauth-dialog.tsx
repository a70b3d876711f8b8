import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { FormProvider, useForm } from 'react-hook-form';
import { FormErrorSummary } from '../form/form-error-summary';
import { CurrentPasswordField } from '../form/form-password-field';
import { useApiFormSubmit } from '../form/use-api-form-submit';
import { ReauthenticateRequest } from '@portal/contracts';
import { reauthenticate } from './reauth-api';

const fieldIds = { password: 'reauth-password' };

/**
 * "Confirm it's you": the password again before an account change when the login is older than the
 * re-authentication window. Labelled by its title; the password field takes focus when it opens, and MUI gives
 * focus back to the control that opened the change when it closes.
 */
export function ReauthDialog({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const form = useForm<ReauthenticateRequest>({
    resolver: zodResolver(ReauthenticateRequest, { error: () => 'Enter your password.' }),
    defaultValues: { password: '' },
    shouldFocusError: false,
  });
  const { submitCount, isSubmitting } = form.formState;
  const { onSubmit, summary } = useApiFormSubmit(form, fieldIds, {
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
      slotProps={{ transition: { onEntered: () => form.setFocus('password') } }}
    >
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate>
          <DialogTitle id="reauth-title">Confirm it&apos;s you</DialogTitle>
          <DialogContent>
            <FormErrorSummary errors={summary} submitCount={submitCount} />
            <DialogContentText id="reauth-text">
              For your security, enter your password again before changing your account. Your change is made right
              after.
            </DialogContentText>
            <CurrentPasswordField id={fieldIds.password} name="password" label="Password" required />
          </DialogContent>
          <DialogActions>
            <Button onClick={onCancel}>Cancel</Button>
            <Button type="submit" variant="contained" disabled={isSubmitting}>
              Confirm
            </Button>
          </DialogActions>
        </form>
      </FormProvider>
    </Dialog>
  );
}
