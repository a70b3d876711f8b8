import { Alert } from '@mui/material';
import {
  DDE_COMMENTS_MAX,
  ddeAccessTypes,
  ddeRequestTypes,
  DdeSubmitRequest,
  type DdeAccessType,
  type DdeRequestType,
  type EasiLocation,
  type EdiEnrollmentStatus,
} from '@portal/contracts';
import { useEffect, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod/mini';
import { ApiForm, useApiForm } from '../../components/form/api-form';
import { FormCountedTextField } from '../../components/form/form-counted-text-field';
import { FormField, PhoneField } from '../../components/form/form-field';
import { FormRadioGroup } from '../../components/form/form-radio-group';
import { FormSelectField } from '../../components/form/form-select-field';
import { FormSubmitButton } from '../../components/form/form-submit-button';
import { submitDdeRequest } from './api/dde-access-api';

const accessTypeLabels: Record<DdeAccessType, string> = {
  inquiry: 'Inquiry only',
  'inquiry-and-claims': 'Inquiry and claim entry',
};
const requestTypeLabels: Record<DdeRequestType, string> = {
  new: 'New DDE access',
  change: 'Change my DDE access',
  remove: 'Remove my DDE access',
};
const statusLabels: Record<EdiEnrollmentStatus, string> = {
  active: 'Active',
  pending: 'Pending',
  inactive: 'Inactive',
};

/** Empty optional fields are left out, as if never typed (the contract checks what is there). */
const withoutEmptyOptionals = (values: unknown) => {
  const { contactPhone, comments, ...rest } = values as Record<string, unknown>;
  return {
    ...rest,
    ...(typeof contactPhone === 'string' && contactPhone.trim() ? { contactPhone } : {}),
    ...(typeof comments === 'string' && comments.trim() ? { comments } : {}),
  };
};
const DdeForm = z.pipe(z.transform(withoutEmptyOptionals), z.omit(DdeSubmitRequest, { idempotencyKey: true }));
type DdeFormValues = Omit<Required<DdeSubmitRequest>, 'idempotencyKey'>;

const fieldIds = {
  locationId: 'dde-location',
  requestType: 'dde-request-type',
  ddeAccessType: 'dde-access-type',
  submitterId: 'dde-submitter-id',
  networkServiceVendor: 'dde-network-vendor',
  contactPhone: 'dde-contact-phone',
  comments: 'dde-comments',
};
const fieldMessages: Record<string, string> = {
  locationId: 'Choose the provider location.',
  requestType: 'Choose what you are asking for.',
  ddeAccessType: 'Choose the DDE access type.',
  submitterId: 'Enter the submitter ID: 1 to 15 letters or numbers.',
  networkServiceVendor: 'Enter the network service vendor (up to 100 characters).',
  comments: `Comments can be at most ${DDE_COMMENTS_MAX} characters.`,
};

const locationLabel = (l: EasiLocation) =>
  `${l.legalName} — NPI ${l.npi}, PTAN ${l.ptan} (${l.jurisdiction} Part ${l.lineOfBusiness})`;

/**
 * The form values a location's enrollment facts pre-fill (empty when it has none on file). What is asked for is
 * preselected only when it is clear: "new" without an enrollment, "change" for an active or inactive one; a pending
 * enrollment is not yet access to change, so the user chooses.
 */
function prefill(location: EasiLocation | undefined): Partial<DdeFormValues> {
  const enrollment = location?.enrollment;
  return {
    requestType: !enrollment ? 'new' : enrollment.status === 'pending' ? ('' as DdeRequestType) : 'change',
    ddeAccessType: enrollment?.ddeAccessType ?? ('' as DdeAccessType),
    submitterId: enrollment?.submitterId ?? '',
    networkServiceVendor: enrollment?.networkServiceVendor ?? '',
  };
}

export function DdeRequestForm({
  locations,
  onSent,
}: {
  locations: EasiLocation[];
  onSent: (referenceNumber: string) => void;
}) {
  // One key per filled-in form: a retry after a network error sends the same key, so the server stores one request.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const only = locations.length === 1 ? locations[0] : undefined;
  const state = useApiForm<DdeFormValues>({
    schema: DdeForm,
    schemaMessage: (field) => fieldMessages[field],
    defaultValues: {
      locationId: only?.locationId ?? '',
      contactPhone: '',
      comments: '',
      ...prefill(only),
    } as DdeFormValues,
    fieldIds,
    submit: async (values) => onSent((await submitDdeRequest({ ...values, idempotencyKey })).referenceNumber),
  });
  const { form, submitCount } = state;
  const { errors } = form.formState;
  const locationId = useWatch({ control: form.control, name: 'locationId' });
  const chosen = locations.find((l) => l.locationId === locationId);
  // Choosing a location pre-fills what its enrollment says (get-easi); the user corrects what is out of date.
  const prefilledFor = useRef(locationId);
  const { setValue } = form;
  useEffect(() => {
    if (locationId === prefilledFor.current) return;
    prefilledFor.current = locationId;
    for (const [name, value] of Object.entries(prefill(chosen)))
      setValue(name as keyof DdeFormValues, value, { shouldValidate: submitCount > 0 });
  }, [locationId, chosen, setValue, submitCount]);

  return (
    <ApiForm form={state} label="Request DDE access">
      <FormRadioGroup
        id={fieldIds.locationId}
        label="Provider location"
        name="locationId"
        control={form.control}
        options={locations.map((l) => ({ value: l.locationId, label: locationLabel(l) }))}
        required
      />
      {chosen && (
        <Alert severity="info" sx={{ my: 1 }} data-testid="dde-enrollment">
          {chosen.enrollment
            ? `Enrollment on file: submitter ID ${chosen.enrollment.submitterId}, status ${statusLabels[chosen.enrollment.status]}. The form starts from it; change what is out of date.${chosen.enrollment.status === 'pending' ? ' The enrollment is still pending: choose what you need.' : ''}`
            : 'No EDI enrollment is on file for this location: fill in the details below.'}
        </Alert>
      )}
      <FormRadioGroup
        id={fieldIds.requestType}
        label="What do you need?"
        name="requestType"
        control={form.control}
        options={ddeRequestTypes.map((value) => ({ value, label: requestTypeLabels[value] }))}
        required
      />
      <FormSelectField
        id={fieldIds.ddeAccessType}
        label="DDE access type"
        options={ddeAccessTypes.map((value) => ({ value, label: accessTypeLabels[value] }))}
        registration={form.register('ddeAccessType')}
        error={errors.ddeAccessType}
        required
      />
      <FormField id={fieldIds.submitterId} name="submitterId" label="Submitter ID" required />
      <FormField
        id={fieldIds.networkServiceVendor}
        name="networkServiceVendor"
        label="Network service vendor"
        required
      />
      <PhoneField id={fieldIds.contactPhone} name="contactPhone" label="Contact phone (optional)" autoComplete="tel" />
      <FormCountedTextField
        id={fieldIds.comments}
        label="Comments (optional)"
        control={form.control}
        name="comments"
        max={DDE_COMMENTS_MAX}
        registration={form.register('comments')}
        error={errors.comments}
      />
      <FormSubmitButton submitting={state.submitting}>Send request</FormSubmitButton>
    </ApiForm>
  );
}
