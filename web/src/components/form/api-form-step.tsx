import type { ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { ApiForm, type ApiFormState } from './api-form';
import { FormSubmitButton } from './form-submit-button';
import { StepHeading } from './step-heading';

/**
 * One step of a multi-step flow as a `useApiForm` form: named by its step heading ("Step 2 of 4"), which takes the
 * focus when the step follows another one, the error summary under it, the step's fields, its submit button and what
 * follows the button (`after`).
 */
export function ApiFormStep<T extends FieldValues, R = T>({
  form,
  label,
  title,
  progress,
  focus,
  submitLabel,
  after,
  children,
}: {
  form: ApiFormState<T, R>;
  label: string;
  title: ReactNode;
  progress?: { step: number; of: number };
  focus: boolean;
  submitLabel: string;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <ApiForm
      form={form}
      label={label}
      heading={
        <StepHeading progress={progress} focus={focus}>
          {title}
        </StepHeading>
      }
    >
      {children}
      <FormSubmitButton submitting={form.submitting}>{submitLabel}</FormSubmitButton>
      {after}
    </ApiForm>
  );
}
