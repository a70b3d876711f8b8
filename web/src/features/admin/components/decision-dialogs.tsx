import {
  ApproveAccessRequest,
  DENY_REASON_MAX,
  DenyAccessRequest,
  type AdminAccessRequest,
  type LocationRole,
} from '@portal/contracts';
import { useId } from 'react';
import { useReauthMutation } from '../../../components/dialogs/reauth-mutation';
import { useApiForm } from '../../../components/form/api-form';
import { ApiFormDialog } from '../../../components/form/api-form-dialog';
import { FormCountedTextField } from '../../../components/form/form-counted-text-field';
import { FormRadioGroup } from '../../../components/form/form-radio-group';
import { adminQueryKeys, approveRequest, denyRequest } from '../api/admin-api';

const roleOptions = [
  { value: 'user', label: 'User: uses the portal for this location' },
  { value: 'administrator', label: 'Administrator: also approves and manages its people' },
] as const;

const who = (request: AdminAccessRequest) => `${request.name} (${request.username})`;

/**
 * A decision on a pending request: the console's confirmed action with a form (`ApiFormDialog`, re-authenticating when
 * the login is old); the lists are read again before it stops being busy. A refusal (a location at its 5
 * administrators, a request someone else decided) shows in the dialog's error summary, which takes the focus.
 */
function useDecision<V>(call: (values: V) => Promise<unknown>, onDone: (values: V) => void) {
  return useReauthMutation({
    call,
    refresh: adminQueryKeys.all,
    refreshAfterFailure: true,
    onSuccess: (_result, values) => onDone(values),
  });
}

/**
 * Approve a pending request: the administrator chooses the role the person gets at the location. Labelled by its
 * title, described by the request; the role group takes focus when it opens.
 */
export function ApproveDialog({
  request,
  onDone,
  onCancel,
}: {
  request: AdminAccessRequest;
  onDone: (role: LocationRole) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const approve = useDecision(
    ({ role }: { role: LocationRole }) => approveRequest(request.requestId, role),
    ({ role }) => onDone(role),
  );
  const form = useApiForm<{ role: LocationRole }>({
    schema: ApproveAccessRequest,
    schemaMessage: () => 'Choose the role.',
    defaultValues: { role: 'user' },
    fieldIds: { role: `${id}-role` },
    submit: async (values) => {
      await approve.mutateAsync(values);
    },
  });
  return (
    <ApiFormDialog
      form={form}
      action={approve}
      title="Approve access"
      confirmLabel="Approve"
      confirmColor="primary"
      onCancel={onCancel}
      initialFocus={`${id}-role`}
      fields={
        <FormRadioGroup
          id={`${id}-role`}
          label="Role"
          name="role"
          control={form.form.control}
          options={roleOptions}
          required
        />
      }
    >
      {who(request)} gets access to {request.legalName} (NPI {request.npi}). We email them the decision.
    </ApiFormDialog>
  );
}

/** Deny a pending request, with an optional reason that the email to the requester quotes. */
export function DenyDialog({
  request,
  onDone,
  onCancel,
}: {
  request: AdminAccessRequest;
  onDone: () => void;
  onCancel: () => void;
}) {
  const id = useId();
  const deny = useDecision(
    ({ reason }: DenyAccessRequest) => denyRequest(request.requestId, reason || undefined),
    onDone,
  );
  const form = useApiForm<DenyAccessRequest>({
    schema: DenyAccessRequest,
    schemaMessage: () => `The reason can be at most ${DENY_REASON_MAX} characters.`,
    defaultValues: { reason: '' },
    fieldIds: { reason: `${id}-reason` },
    submit: async (values) => {
      await deny.mutateAsync(values);
    },
  });
  return (
    <ApiFormDialog
      form={form}
      action={deny}
      title="Deny access"
      confirmLabel="Deny"
      onCancel={onCancel}
      initialFocus={`${id}-reason`}
      fields={
        <FormCountedTextField
          id={`${id}-reason`}
          label="Reason (optional)"
          control={form.form.control}
          name="reason"
          max={DENY_REASON_MAX}
          registration={form.form.register('reason')}
          error={form.form.formState.errors.reason}
        />
      }
    >
      {who(request)} does not get access to {request.legalName} (NPI {request.npi}). We email them the decision, with
      your reason if you give one.
    </ApiFormDialog>
  );
}
