import { Button, Stack, Typography } from '@mui/material';
import type { FinancialLookupSelector, ValidateAuthorityRequest } from '@portal/contracts/registration';
import { useWatch } from 'react-hook-form';
import type { z } from 'zod/mini';
import { ApiForm, useApiForm } from '../../../components/form/api-form';
import { FormDateField } from '../../../components/form/form-date-field';
import { FormField } from '../../../components/form/form-field';
import { FormRadioGroup } from '../../../components/form/form-radio-group';
import { ProviderIdentifierFields } from '../../../components/form/provider-identifier-fields';
import { ShownAsIsError } from '../../../lib/use-api-error-text';
import { requestResolver } from '../../../components/form/request-resolver';
import { useReportedValues } from '../../../lib/use-wizard';

export interface AuthorityFormValues {
  financialLookupSelector: FinancialLookupSelector | '';
  npi: string;
  patientMbi: string;
  dateOfService: string;
  checkNumber: string;
  claimNumber: string;
}

export const emptyAuthorityValues = (npi: string): AuthorityFormValues => ({
  financialLookupSelector: '',
  npi,
  patientMbi: '',
  dateOfService: '',
  checkNumber: '',
  claimNumber: '',
});

/** The text shown when the server answers without `success: true` (docs/requirements/portal.md#validation-rules). */
export const AUTHORITY_NOT_CONFIRMED = 'An error has happened';

const loadValidateAuthorityRequest = () =>
  import('@portal/contracts/registration').then((m) => m.ValidateAuthorityRequest);
// The calls and their answers' schemas load with the first call (docs/decisions/0060).
const registrationApi = () => import('../api/registration-api');

/** The request holds the step's token (the form's `context`, read at every validation). */
const resolver = requestResolver(
  loadValidateAuthorityRequest,
  (values: AuthorityFormValues, validationToken) => toRequest(values, validationToken as string),
  { financialLookupSelector: 'Choose how you will prove that you work for this provider.' },
);

const fieldIds = {
  financialLookupSelector: 'register-proof',
  npi: 'register-authority-npi',
  patientMbi: 'register-mbi',
  dateOfService: 'register-date-of-service',
  checkNumber: 'register-check-number',
  claimNumber: 'register-claim-number',
} as const;

const proofOptions = [
  { value: 'patient', label: "A patient's Medicare number (MBI) and a date of service" },
  { value: 'check', label: 'A check or EFT number of a payment' },
  { value: 'claim', label: 'A claim number' },
];

/** The request holds only the facts of the chosen proof (the schema refuses any other field). */
function toRequest(values: AuthorityFormValues, validationToken: string) {
  const common = { npi: values.npi, validationToken };
  switch (values.financialLookupSelector) {
    case 'patient':
      return {
        ...common,
        financialLookupSelector: 'patient',
        patientMbi: values.patientMbi,
        dateOfService: values.dateOfService,
      };
    case 'check':
      return { ...common, financialLookupSelector: 'check', checkNumber: values.checkNumber };
    case 'claim':
      return { ...common, financialLookupSelector: 'claim', claimNumber: values.claimNumber };
    default:
      return { ...common, financialLookupSelector: values.financialLookupSelector };
  }
}

/**
 * Step 2 (docs/requirements/portal.md#authority-validation): prove working for the location with a fact only its
 * office has. It passes only on `success: true`, otherwise 'An error has happened'; an HTTP error's `errorMessage`
 * is the server's sentence and is shown as it is.
 */
export function AuthorityStep({
  defaultValues,
  validationToken,
  onValues,
  onVerified,
  onBack,
}: {
  defaultValues: AuthorityFormValues;
  validationToken: string;
  /** The values as they are typed (the wizard keeps them, use-wizard.ts). */
  onValues?: (values: AuthorityFormValues) => void;
  onVerified: (values: AuthorityFormValues, registrationToken: string) => void;
  onBack: (values: AuthorityFormValues) => void;
}) {
  const state = useApiForm<AuthorityFormValues, z.output<typeof ValidateAuthorityRequest>>({
    resolver,
    context: validationToken,
    defaultValues,
    fieldIds,
    sentences: true,
    submit: async (request) => {
      const answer = await (await registrationApi()).validateAuthority(request);
      if (answer.success !== true || !answer.registrationToken) throw new ShownAsIsError(AUTHORITY_NOT_CONFIRMED);
      onVerified(state.form.getValues(), answer.registrationToken);
    },
  });
  const { form } = state;
  useReportedValues(form, onValues);
  const selector = useWatch({ control: form.control, name: 'financialLookupSelector' });

  return (
    <ApiForm form={state} label="Authority">
      <Typography sx={{ mb: 1 }}>
        Prove that you work for this provider location with a fact from a claim paid to it in the last 90 days.
      </Typography>
      <FormRadioGroup
        id={fieldIds.financialLookupSelector}
        label="How will you prove it?"
        name="financialLookupSelector"
        control={form.control}
        options={proofOptions}
        required
      />
      {selector === 'patient' && (
        <>
          <FormField
            id={fieldIds.patientMbi}
            name="patientMbi"
            label="Patient's Medicare Beneficiary Identifier (MBI)"
            helperText="11 characters, for example 1EG4-TE5-MK73"
            slotProps={{ htmlInput: { autoComplete: 'off', autoCapitalize: 'characters' } }}
            required
          />
          <FormDateField
            id={fieldIds.dateOfService}
            label="Date of service"
            name="dateOfService"
            control={form.control}
            required
            past
          />
        </>
      )}
      {selector === 'check' && (
        <FormField
          id={fieldIds.checkNumber}
          name="checkNumber"
          label="Check or EFT number"
          helperText="As printed on the remittance advice"
          slotProps={{ htmlInput: { autoComplete: 'off' } }}
          required
        />
      )}
      {selector === 'claim' && (
        <FormField
          id={fieldIds.claimNumber}
          name="claimNumber"
          label="Claim number (ICN or DCN)"
          helperText="13 to 23 letters or numbers"
          slotProps={{ htmlInput: { autoComplete: 'off' } }}
          required
        />
      )}
      <ProviderIdentifierFields form={form} ids={{ npi: fieldIds.npi }} />
      <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={2} sx={{ mt: 2 }}>
        <Button variant="outlined" onClick={() => onBack(form.getValues())}>
          Back
        </Button>
        <Button type="submit" variant="contained" disabled={state.submitting}>
          Verify and continue
        </Button>
      </Stack>
    </ApiForm>
  );
}
