import { Alert } from '@mui/material';
import type { UseMutationResult } from '@tanstack/react-query';
import type { ComponentProps, ReactNode } from 'react';
import { ConfirmDialog } from './confirm-dialog';
import { useActionErrorText } from './reauth-mutation';

/**
 * "Are you sure?" for a `useReauthMutation` action: the confirm button is disabled while it runs; `showError` puts
 * the refusal inside the dialog (an action whose dialog stays open after a refusal), as an alert. An action that asks
 * for something first (a reason, a role) is an `ApiFormDialog` (`components/form/api-form-dialog.tsx`), this dialog
 * with a form.
 */
export function ConfirmActionDialog({
  action,
  showError,
  busy,
  children,
  ...dialog
}: {
  action: Pick<UseMutationResult<unknown, unknown, never>, 'isPending' | 'error'>;
  showError?: boolean;
  children: ReactNode;
} & Omit<ComponentProps<typeof ConfirmDialog>, 'children'>) {
  const errorText = useActionErrorText(action);
  return (
    <ConfirmDialog {...dialog} busy={busy || action.isPending}>
      {showError && errorText && (
        <Alert severity="error" role="alert" sx={{ mb: 2 }} data-testid="confirm-action-error">
          {errorText}
        </Alert>
      )}
      {children}
    </ConfirmDialog>
  );
}
