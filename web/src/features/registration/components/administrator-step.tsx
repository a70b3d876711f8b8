import { Button, Stack, Typography } from '@mui/material';
import type { SelfRegistrationRequest } from '@portal/contracts/registration';
import { useWatch } from 'react-hook-form';
import type { z } from 'zod/mini';
import { ApiForm, useApiForm } from '../../../components/form/api-form';
import { LazyDateOfBirthField } from '../../../components/form/lazy-date-field';
import { EmailField, FormField, PhoneField } from '../../../components/form/form-field';
import { NewPasswordFields } from '../../../components/form/new-password-fields';
import { requestResolver, type SchemaSource } from '../../../components/form/request-resolver';
import {
  emptySecurityQuestions,
  SecurityQuestionsFields,
  securityQuestionFieldIds,
  withoutListErrorWhileUnchosen,
} from '../../../components/form/security-questions-fields';
import { useReportedValues } from '../../../lib/use-wizard';

export interface AdministratorFormValues {
  firstName: string;
  lastName: string;
  email: string;
  emailConfirmation: string;
  phone: string;
  dob: string;
  username: string;
  password: string;
  /** Checked here only: the server takes the password once. */
  passwordConfirmation: string;
  securityQuestions: { questionId: string; answer: string }[];
}

export const emptyAdministratorValues = (): AdministratorFormValues => ({
  firstName: '',
  lastName: '',
  email: '',
  emailConfirmation: '',
  phone: '',
  dob: '',
  username: '',
  password: '',
  passwordConfirmation: '',
  securityQuestions: emptySecurityQuestions(),
});

/** The values as the tab keeps them (use-wizard.ts): never the password or the security answers. */
export const withoutSecrets = (values: AdministratorFormValues): AdministratorFormValues => ({
  ...values,
  password: '',
  passwordConfirmation: '',
  securityQuestions: values.securityQuestions.map((q) => ({ ...q, answer: '' })),
});

export const PASSWORD_MISMATCH = 'The passwords do not match. Enter the same password twice.';

const ids = {
  firstName: 'register-first-name',
  lastName: 'register-last-name',
  email: 'register-email',
  emailConfirmation: 'register-email-confirmation',
  phone: 'register-phone',
  dob: 'register-dob',
  username: 'register-username',
  password: 'register-password',
  passwordConfirmation: 'register-password-confirmation',
} as const;
/** Every field the summary links to, nested ones by their dotted path. */
const fieldIds: Record<string, string> = {
  ...ids,
  ...securityQuestionFieldIds('register'),
};

const loadSelfRegistrationRequest = (): Promise<typeof SelfRegistrationRequest> =>
  import('@portal/contracts/registration').then((m) => m.SelfRegistrationRequest);
// The call and its answer's schema load with the call (docs/decisions/0060).
const registerAdministrator = async (body: SelfRegistrationRequest) =>
  (await import('../api/registration-api')).registerAdministrator(body);

/** The account fields without what only the form checks: the request's part the page's schema parses. */
export type AccountRequestValues = Omit<AdministratorFormValues, 'passwordConfirmation'>;

/** The form's `context`: what the page adds to the account's fields (read at every validation). */
type ToRequest = (values: AccountRequestValues) => unknown;

function accountResolver<S extends z.ZodMiniType>(schema: SchemaSource<S>) {
  const resolve = requestResolver(
    schema,
    ({ passwordConfirmation: _confirmation, ...values }: AdministratorFormValues, toRequest) =>
      (toRequest as ToRequest)(values),
    { dob: 'Date_Of_Birth_Invalid', emailConfirmation: 'Email_Mismatch' },
  );
  return async (...args: Parameters<typeof resolve>) => {
    const [values] = args;
    const result = await resolve(...args);
    const errors = withoutListErrorWhileUnchosen(values, { ...result.errors });
    if (values.passwordConfirmation !== values.password)
      errors.passwordConfirmation = { type: 'validate', message: PASSWORD_MISMATCH };
    if (Object.keys(errors).length === 0) return result;
    return { values: {}, errors } as Awaited<ReturnType<typeof resolve>>;
  };
}

/**
 * Step 3 (docs/requirements/portal.md#administrator-self-registration): the administrator's details, a password
 * under the policy (live checklist, optional generated password) and three different security questions from the
 * CMS with their answers. A taken username (409 `Username_Taken`) is shown next to the username.
 */
export function AdministratorStep({
  registrationToken,
  ...props
}: {
  defaultValues: AdministratorFormValues;
  registrationToken: string;
  onValues?: (values: AdministratorFormValues) => void;
  onRegistered: (values: AdministratorFormValues) => void;
  onBack: (values: AdministratorFormValues) => void;
}) {
  return (
    <AccountStep
      {...props}
      label="Administrator"
      schema={loadSelfRegistrationRequest}
      toRequest={(values) => ({ ...values, registrationToken })}
      register={registerAdministrator}
    />
  );
}

/**
 * The account fields of a self-registration (the administrator's and the end user's,
 * docs/requirements/staff-accounts.md#end-users): `schema` is the request the server checks, `toRequest` adds what
 * the page's other steps hold, `register` sends it (answering `false` when it handled a refusal itself: the step stays).
 */
export function AccountStep<S extends z.ZodMiniType>({
  defaultValues,
  label,
  schema,
  toRequest,
  register,
  onValues,
  onRegistered,
  onBack,
}: {
  defaultValues: AdministratorFormValues;
  label: string;
  schema: SchemaSource<S>;
  toRequest: (values: AccountRequestValues) => z.input<S>;
  register: (request: z.output<S>) => Promise<unknown>;
  /** The values as they are typed (the wizard keeps them without the secrets, use-wizard.ts). */
  onValues?: (values: AdministratorFormValues) => void;
  onRegistered: (values: AdministratorFormValues) => void;
  onBack: (values: AdministratorFormValues) => void;
}) {
  const state = useApiForm<AdministratorFormValues, z.output<S>>({
    resolver: accountResolver(schema) as never,
    // Read at every validation: the page's latest (the invitation's token is known once the page has hydrated).
    context: toRequest,
    defaultValues,
    fieldIds,
    fieldForCode: { Username_Taken: 'username' },
    submit: async (request) => {
      if ((await register(request)) === false) return;
      onRegistered(state.form.getValues());
    },
  });
  const { form, text } = state;
  useReportedValues(form as never, onValues);
  const personal = useWatch({ control: form.control, name: ['firstName', 'lastName', 'username', 'email'] });
  return (
    <ApiForm form={state} label={label}>
      <Typography component="h3" variant="h6" sx={{ mt: 1 }}>
        About you
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ columnGap: 2 }}>
        <FormField id={ids.firstName} name="firstName" label="First name" autoComplete="given-name" required />
        <FormField id={ids.lastName} name="lastName" label="Last name" autoComplete="family-name" required />
      </Stack>
      <EmailField
        id={ids.email}
        name="email"
        label="Email"
        helperText="We send a link to this address to verify it."
        required
      />
      <EmailField id={ids.emailConfirmation} name="emailConfirmation" label="Email again" required />
      <PhoneField id={ids.phone} name="phone" helperText="10 digits, for example 410-555-0123" required />
      <LazyDateOfBirthField id={ids.dob} name="dob" helperText="For example: 03/14/1975" />

      <Typography component="h3" variant="h6" sx={{ mt: 3 }}>
        Username and password
      </Typography>
      <FormField
        id={ids.username}
        name="username"
        label="Username"
        autoComplete="username"
        helperText="6 to 30 letters, numbers, dots, dashes or underscores, starting with a letter"
        slotProps={{ htmlInput: { autoCapitalize: 'none', spellCheck: false } }}
        required
      />
      <NewPasswordFields
        id={ids.password}
        name="password"
        label="Password"
        confirmation={{ id: ids.passwordConfirmation, name: 'passwordConfirmation', label: 'Password again' }}
        personal={personal}
      />

      <Typography component="h3" variant="h6" sx={{ mt: 3 }}>
        Security questions
      </Typography>
      <SecurityQuestionsFields form={form} prefix="register" text={text} />
      <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={2} sx={{ mt: 2 }}>
        <Button variant="outlined" onClick={() => onBack(form.getValues())}>
          Back
        </Button>
        <Button type="submit" variant="contained" disabled={state.submitting}>
          Create my account
        </Button>
      </Stack>
    </ApiForm>
  );
}
