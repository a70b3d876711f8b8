import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
} from '@mui/material';
import {
  OPS_REASON_MAX,
  OPS_REASON_MIN,
  OpsActionRequest,
  OpsResetMfaRequest,
  OpsRestoreAdministratorRequest,
  identityChecks,
  type IdentityCheck,
} from '@portal/contracts/ops';
import { useId, type ReactNode } from 'react';
import { FormProvider, useController, useForm, type Control } from 'react-hook-form';
import { FormCountedTextField } from '../../../components/form/form-counted-text-field';
import { FormErrorSummary } from '../../../components/form/form-error-summary';
import { FormRadioGroup } from '../../../components/form/form-radio-group';
import { useApiFormSubmit } from '../../../components/form/use-api-form-submit';
import { useFieldErrorText } from '../../../components/form/form-text-field';
import { identityCheckLabel } from '../ops-text';

/** What an action's form holds: the reason always; the identity checklist (MFA reset) or the person (restore). */
export interface ActionValues {
  reason: string;
  identityChecks: IdentityCheck[];
  userId: string;
}

export type ActionForm = 'reason' | 'identity' | 'restore';

const reasonMessage = `Give a reason of ${OPS_REASON_MIN} to ${OPS_REASON_MAX} characters: it goes in the audit trail.`;
const messages: Record<string, string> = {
  reason: reasonMessage,
  identityChecks: 'Tick at least two different facts you checked with the caller.',
  userId: 'Choose who becomes the administrator.',
};

const schemas = { reason: OpsActionRequest, identity: OpsResetMfaRequest, restore: OpsRestoreAdministratorRequest };

/** The request of each form, from its values (only the fields its schema has). */
const requestOf = (form: ActionForm, values: ActionValues) =>
  form === 'identity'
    ? { reason: values.reason, identityChecks: values.identityChecks }
    : form === 'restore'
      ? { reason: values.reason, userId: values.userId }
      : { reason: values.reason };

/**
 * An action of the console in a labelled, focus-trapped dialog (docs/requirements/help-desk.md#actions): what it does,
 * the fields it needs (a reason always, checked as the server checks it), and the server's refusal in the dialog's
 * error summary. The reason box takes focus when it opens, except where a choice comes first.
 */
export function ActionDialog({
  title,
  description,
  confirmLabel,
  confirmColor = 'primary',
  form: kind = 'reason',
  people = [],
  onSubmit,
  onCancel,
}: {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  confirmColor?: 'primary' | 'error';
  form?: ActionForm;
  /** The people a supervisor may restore as administrator (`restore`). */
  people?: { value: string; label: string }[];
  /** Sends the request; a failure is shown in the dialog (it stays open). */
  onSubmit: (request: { reason: string; identityChecks?: IdentityCheck[]; userId?: string }) => Promise<void>;
  onCancel: () => void;
}) {
  const id = useId();
  const form = useForm<ActionValues>({
    resolver: async (values, context, options) => {
      const request = requestOf(kind, values);
      const result = await zodResolver(schemas[kind], {
        error: (issue) => messages[String(issue.path?.[0])] ?? reasonMessage,
      })(request as never, context, options as never);
      return result as never;
    },
    defaultValues: { reason: '', identityChecks: [], userId: '' },
    shouldFocusError: false,
  });
  const { submitCount, isSubmitting, errors } = form.formState;
  const { onSubmit: submit, summary } = useApiFormSubmit(
    form,
    { userId: `${id}-person`, identityChecks: `${id}-checks`, reason: `${id}-reason` },
    { submit: (values) => onSubmit(requestOf(kind, values)) },
  );
  return (
    <Dialog
      open
      onClose={onCancel}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      maxWidth="sm"
      fullWidth
      slotProps={{
        transition: {
          onEntered: () =>
            kind === 'reason'
              ? form.setFocus('reason')
              : document.getElementById(kind === 'restore' ? `${id}-person` : `${id}-checks`)?.focus(),
        },
      }}
    >
      <FormProvider {...form}>
        <form onSubmit={submit} noValidate>
          <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
          <DialogContent>
            <FormErrorSummary errors={summary} submitCount={submitCount} />
            <DialogContentText id={`${id}-text`} component="div">
              {description}
            </DialogContentText>
            {kind === 'restore' && (
              <FormRadioGroup
                id={`${id}-person`}
                label="Who becomes the administrator"
                name="userId"
                control={form.control}
                options={people}
                required
              />
            )}
            {kind === 'identity' && <IdentityChecklist id={`${id}-checks`} control={form.control} />}
            <FormCountedTextField
              id={`${id}-reason`}
              label="Reason"
              required
              control={form.control}
              name="reason"
              max={OPS_REASON_MAX}
              registration={form.register('reason')}
              error={errors.reason}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={onCancel}>Cancel</Button>
            <Button type="submit" variant="contained" color={confirmColor} disabled={isSubmitting}>
              {confirmLabel}
            </Button>
          </DialogActions>
        </form>
      </FormProvider>
    </Dialog>
  );
}

/**
 * The identity checklist of an MFA reset: the fixed list, two different facts required. The portal records which were
 * checked, never the values the caller gave.
 */
function IdentityChecklist({ id, control }: { id: string; control: Control<ActionValues> }) {
  const { field, fieldState } = useController({ name: 'identityChecks', control });
  const message = useFieldErrorText(fieldState.error);
  const checked = field.value;
  return (
    <FormControl component="fieldset" error={!!fieldState.error} required margin="normal" fullWidth>
      <FormLabel component="legend" id={`${id}-label`}>
        How you checked who the caller is (at least two)
      </FormLabel>
      <FormGroup aria-describedby={message ? `${id}-helper-text` : undefined}>
        {identityChecks.map((check, index) => (
          <FormControlLabel
            key={check}
            label={identityCheckLabel[check]}
            control={
              <Checkbox
                id={index === 0 ? id : `${id}-${check}`}
                checked={checked.includes(check)}
                onBlur={field.onBlur}
                onChange={(event) =>
                  field.onChange(
                    event.target.checked ? [...checked, check] : checked.filter((value) => value !== check),
                  )
                }
              />
            }
          />
        ))}
      </FormGroup>
      {message && <FormHelperText id={`${id}-helper-text`}>{message}</FormHelperText>}
    </FormControl>
  );
}
