import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { z } from 'zod/mini';
import { FormCountedTextField } from '../../../components/form/form-counted-text-field';
import { FormErrorSummary } from '../../../components/form/form-error-summary';
import { FormRadioGroup } from '../../../components/form/form-radio-group';
import { useApiFormSubmit } from '../../../components/form/use-api-form-submit';
import { useReauth } from '../../../components/reauth/reauth-provider';
import { approveRequest, denyRequest, type AdminAccessRequest, type AdminRole } from '../api/admin-api';

export const DENY_REASON_MAX = 500;

const roleOptions = [
  { value: 'user', label: 'User: uses the portal for this location' },
  { value: 'administrator', label: 'Administrator: also approves and manages its people' },
] as const;

const ApproveForm = z.object({ role: z.enum(['user', 'administrator']) });
const DenyForm = z.object({ reason: z.string().check(z.trim(), z.maxLength(DENY_REASON_MAX)) });

const who = (request: AdminAccessRequest) => `${request.name} (${request.username})`;

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
  onDone: (role: AdminRole) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const { withReauth } = useReauth();
  const form = useForm<z.infer<typeof ApproveForm>>({
    resolver: zodResolver(ApproveForm, { error: () => 'Choose the role.' }),
    defaultValues: { role: 'user' },
    shouldFocusError: false,
  });
  const { submitCount, isSubmitting } = form.formState;
  const { onSubmit, summary } = useApiFormSubmit(
    form,
    { role: `${id}-role` },
    {
      submit: async ({ role }) => {
        await withReauth(() => approveRequest(request.requestId, role));
        onDone(role);
      },
    },
  );
  return (
    <Dialog
      open
      onClose={onCancel}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      slotProps={{ transition: { onEntered: () => document.getElementById(`${id}-role`)?.focus() } }}
    >
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate>
          <DialogTitle id={`${id}-title`}>Approve access</DialogTitle>
          <DialogContent>
            <FormErrorSummary errors={summary} submitCount={submitCount} />
            <DialogContentText id={`${id}-text`}>
              {who(request)} gets access to {request.legalName} (NPI {request.npi}). We email them the decision.
            </DialogContentText>
            <FormRadioGroup
              id={`${id}-role`}
              label="Role"
              name="role"
              control={form.control}
              options={roleOptions}
              required
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={onCancel}>Cancel</Button>
            <Button type="submit" variant="contained" disabled={isSubmitting}>
              Approve
            </Button>
          </DialogActions>
        </form>
      </FormProvider>
    </Dialog>
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
  const { withReauth } = useReauth();
  const form = useForm<z.infer<typeof DenyForm>>({
    resolver: zodResolver(DenyForm, { error: () => `The reason can be at most ${DENY_REASON_MAX} characters.` }),
    defaultValues: { reason: '' },
    shouldFocusError: false,
  });
  const { submitCount, isSubmitting, errors } = form.formState;
  const { onSubmit, summary } = useApiFormSubmit(
    form,
    { reason: `${id}-reason` },
    {
      submit: async ({ reason }) => {
        await withReauth(() => denyRequest(request.requestId, reason || undefined));
        onDone();
      },
    },
  );
  return (
    <Dialog
      open
      onClose={onCancel}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      slotProps={{ transition: { onEntered: () => form.setFocus('reason') } }}
    >
      <FormProvider {...form}>
        <form onSubmit={onSubmit} noValidate>
          <DialogTitle id={`${id}-title`}>Deny access</DialogTitle>
          <DialogContent>
            <FormErrorSummary errors={summary} submitCount={submitCount} />
            <DialogContentText id={`${id}-text`}>
              {who(request)} does not get access to {request.legalName} (NPI {request.npi}). We email them the decision,
              with your reason if you give one.
            </DialogContentText>
            <FormCountedTextField
              id={`${id}-reason`}
              label="Reason (optional)"
              control={form.control}
              name="reason"
              max={DENY_REASON_MAX}
              registration={form.register('reason')}
              error={errors.reason}
            />
          </DialogContent>
          <DialogActions>
            <Button onClick={onCancel}>Cancel</Button>
            <Button type="submit" variant="contained" color="error" disabled={isSubmitting}>
              Deny
            </Button>
          </DialogActions>
        </form>
      </FormProvider>
    </Dialog>
  );
}
