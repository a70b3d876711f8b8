import { Checkbox, FormControl, FormControlLabel, FormGroup, FormHelperText, FormLabel } from '@mui/material';
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
import { useController, type Control } from 'react-hook-form';
import { useReauthMutation } from '../../../components/dialogs/reauth-mutation';
import { useApiForm } from '../../../components/form/api-form';
import { ApiFormDialog } from '../../../components/form/api-form-dialog';
import { FormCountedTextField } from '../../../components/form/form-counted-text-field';
import { FormRadioGroup } from '../../../components/form/form-radio-group';
import { requestResolver } from '../../../components/form/request-resolver';
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
type ActionRequest = { reason: string; identityChecks?: IdentityCheck[]; userId?: string };

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
 * error summary, which takes the focus (the dialog stays open). The shared `ApiFormDialog` with a `useReauthMutation`
 * (the console has no re-authentication: the call runs as it is). The reason box takes focus when it opens, except
 * where a choice comes first.
 */
export function ActionDialog<R>({
  title,
  description,
  confirmLabel,
  confirmColor = 'primary',
  form: kind = 'reason',
  people = [],
  call,
  onDone,
  onCancel,
}: {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  confirmColor?: 'primary' | 'error';
  form?: ActionForm;
  /** The people a supervisor may restore as administrator (`restore`). */
  people?: { value: string; label: string }[];
  /** Sends the request (only the fields of this form's schema). */
  call: (request: ActionRequest) => Promise<R>;
  /** After the call succeeded: put its answer in place, close the dialog, say what happened. */
  onDone: (result: R, request: ActionRequest) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const fieldIds = { userId: `${id}-person`, identityChecks: `${id}-checks`, reason: `${id}-reason` };
  const action = useReauthMutation({ call, onSuccess: onDone });
  const form = useApiForm<ActionValues>({
    resolver: requestResolver(schemas[kind], (values: ActionValues) => requestOf(kind, values), messages) as never,
    defaultValues: { reason: '', identityChecks: [], userId: '' },
    fieldIds,
    submit: async (values) => {
      await action.mutateAsync(requestOf(kind, values));
    },
  });
  const { errors } = form.form.formState;
  return (
    <ApiFormDialog
      form={form}
      action={action}
      title={title}
      confirmLabel={confirmLabel}
      confirmColor={confirmColor}
      onCancel={onCancel}
      wide
      initialFocus={
        kind === 'reason' ? fieldIds.reason : kind === 'restore' ? fieldIds.userId : fieldIds.identityChecks
      }
      fields={
        <>
          {kind === 'restore' && (
            <FormRadioGroup
              id={fieldIds.userId}
              label="Who becomes the administrator"
              name="userId"
              control={form.form.control}
              options={people}
              required
            />
          )}
          {kind === 'identity' && <IdentityChecklist id={fieldIds.identityChecks} control={form.form.control} />}
          <FormCountedTextField
            id={fieldIds.reason}
            label="Reason"
            required
            control={form.form.control}
            name="reason"
            max={OPS_REASON_MAX}
            registration={form.form.register('reason')}
            error={errors.reason}
          />
        </>
      }
    >
      {description}
    </ApiFormDialog>
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
