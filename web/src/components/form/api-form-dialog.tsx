import type { UseMutationResult } from '@tanstack/react-query';
import type { ComponentProps, ReactNode } from 'react';
import { FormProvider, type FieldValues } from 'react-hook-form';
import { ConfirmActionDialog } from '../dialogs/confirm-action';
import { ApiFormSummary, type ApiFormState } from './api-form';

/**
 * A confirmed action that asks for something first (a reason, a role, an address): a `ConfirmActionDialog` whose
 * content is the `useApiForm` form (docs/decisions/0073-form-and-action-primitives.md). The error summary (the form's
 * checks and the server's refusal, which keeps the dialog open) sits under the title and takes the focus; `fields`
 * follow the description; the confirm button submits and is disabled while the form or the action runs. The form's
 * `submit` calls the action's `mutateAsync`, so a refusal reaches the summary.
 */
export function ApiFormDialog<T extends FieldValues, R = T>({
  form,
  action,
  fields,
  children,
  ...dialog
}: {
  form: ApiFormState<T, R>;
  action: Pick<UseMutationResult<unknown, unknown, never>, 'isPending' | 'error'>;
  fields: ReactNode;
  children: ReactNode;
} & Omit<
  ComponentProps<typeof ConfirmActionDialog>,
  'action' | 'children' | 'onSubmit' | 'top' | 'fields' | 'showError'
>) {
  return (
    <FormProvider {...form.form}>
      <ConfirmActionDialog
        {...dialog}
        action={action}
        busy={form.submitting}
        onSubmit={form.onSubmit}
        top={<ApiFormSummary form={form} />}
        fields={fields}
      >
        {children}
      </ConfirmActionDialog>
    </FormProvider>
  );
}
