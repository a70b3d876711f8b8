import { CreateInvitationRequest, type InvitableLocation, type OpenInvitation } from '@portal/contracts/invitations';
import { useId } from 'react';
import type { z } from 'zod/mini';
import { useReauthMutation } from '../../../components/dialogs/reauth-mutation';
import { useApiForm } from '../../../components/form/api-form';
import { ApiFormDialog } from '../../../components/form/api-form-dialog';
import { EmailField, FormField } from '../../../components/form/form-field';
import { FormRadioGroup } from '../../../components/form/form-radio-group';
import { FormSelectField } from '../../../components/form/form-select-field';
import { requestResolver } from '../../../components/form/request-resolver';
import { createInvitation, invitationsQueryKey } from './invitations-api';

const roleOptions = [
  { value: 'user', label: 'User: uses the portal for this location' },
  { value: 'administrator', label: 'Administrator: also approves and manages its people' },
] as const;

const resolver = requestResolver(CreateInvitationRequest, (values: CreateInvitationRequest) => values, {
  locationId: 'Choose the location.',
  role: 'Choose the role.',
});

/**
 * "Invite a person" (docs/requirements/staff-accounts.md#invitations): an email address, optionally their name (the
 * email's greeting), one of the administrator's locations (chosen only when they have several) and the role. Labelled by its title; the email field takes focus when
 * it opens. The server emails the link; a login older than the window asks for the password first.
 */
export function InviteDialog({
  locations,
  onDone,
  onCancel,
}: {
  locations: InvitableLocation[];
  onDone: (invitation: OpenInvitation) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const fieldIds = { email: `${id}-email`, name: `${id}-name`, locationId: `${id}-location`, role: `${id}-role` };
  const invite = useReauthMutation({ call: createInvitation, refresh: invitationsQueryKey, onSuccess: onDone });
  const form = useApiForm<CreateInvitationRequest, z.output<typeof CreateInvitationRequest>>({
    resolver,
    defaultValues: {
      email: '',
      name: '',
      locationId: locations.length === 1 ? locations[0]!.locationId : '',
      role: 'user',
    },
    fieldIds,
    submit: async (values) => {
      await invite.mutateAsync(values);
    },
    fieldForCode: { Invitation_Already_Member: 'email' },
  });
  const only = locations.length === 1 ? locations[0] : undefined;

  return (
    <ApiFormDialog
      form={form}
      action={invite}
      title="Invite a person"
      confirmLabel="Send the invitation"
      confirmColor="primary"
      onCancel={onCancel}
      wide
      initialFocus={fieldIds.email}
      fields={
        <>
          <EmailField id={fieldIds.email} name="email" label="Their email address" required />
          {/* The email greets them by it (issue 38 item 10). */}
          <FormField id={fieldIds.name} name="name" label="Their name (optional)" autoComplete="off" />
          {!only && (
            <FormSelectField
              id={fieldIds.locationId}
              label="Location"
              options={locations.map((l) => ({ value: l.locationId, label: `${l.legalName} (NPI ${l.npi})` }))}
              registration={form.form.register('locationId')}
              error={form.form.formState.errors.locationId}
              required
            />
          )}
          <FormRadioGroup
            id={fieldIds.role}
            label="Role"
            name="role"
            control={form.form.control}
            options={roleOptions}
            required
          />
        </>
      }
    >
      We email them a link that works once, for 7 days. They create their account with that address, or log in to the
      account that has it, and get the location at once.
      {only && ` The location: ${only.legalName} (NPI ${only.npi}).`}
    </ApiFormDialog>
  );
}
