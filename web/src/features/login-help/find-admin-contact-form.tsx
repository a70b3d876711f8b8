import { Box, Typography } from '@mui/material';
import type { FindAdminContactRequest } from '@portal/contracts';
import { FIND_ADMIN_CONTACT_MESSAGE_MAX } from '@portal/contracts/field-limits';
import { useEffect, useRef, useState } from 'react';
import { ApiForm, useApiForm } from '../../components/form/api-form';
import { FormCountedTextField } from '../../components/form/form-counted-text-field';
import { EmailField, FormField, PhoneField } from '../../components/form/form-field';
import { FormOutcome } from '../../components/form/form-outcome';
import { FormSubmitButton } from '../../components/form/form-submit-button';

// The calls and their answers' schemas load with the first call (docs/decisions/0060).
const loginHelpApi = () => import('./api/login-help-api');
type ContactFormValues = Omit<FindAdminContactRequest, 'contactToken'>;
const schema = async () => {
  const [{ z }, { FindAdminContactRequest }] = await Promise.all([
    import('zod/mini'),
    import('@portal/contracts/find-admin'),
  ]);
  return z.omit(FindAdminContactRequest, { contactToken: true });
};

const fieldIds = {
  name: 'find-admin-contact-name',
  email: 'find-admin-contact-email',
  phone: 'find-admin-contact-phone',
  message: 'find-admin-contact-message',
};

/**
 * "Ask this administrator to contact me" (docs/requirements/portal.md#find-my-administrator): the visitor's name,
 * email, phone and a short message go, with the lookup's opaque `contactToken`, to the server, which emails the
 * location's administrators. Nothing about them comes back: the confirmation names no address.
 */
export function FindAdminContactForm({ contactToken, plural }: { contactToken: string; plural: boolean }) {
  const [sent, setSent] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const form = useApiForm<ContactFormValues>({
    schema,
    defaultValues: { name: '', email: '', phone: '', message: '' },
    fieldIds,
    submit: async (values) => {
      await (await loginHelpApi()).contactAdministrators({ ...values, contactToken });
      setSent(true);
    },
  });

  if (sent)
    return (
      <FormOutcome title="Your request was sent" testId="find-admin-contact-sent">
        <Typography>
          We emailed your request to {plural ? "the location's administrators" : "the location's administrator"}.{' '}
          {plural ? 'One of them' : 'They'} will contact you by email or phone. Their email address is not shown here;
          yours goes only to them.
        </Typography>
      </FormOutcome>
    );
  return (
    <Box component="section" aria-labelledby="find-admin-contact-title" sx={{ mb: 3 }}>
      <Typography
        component="h2"
        variant="h5"
        id="find-admin-contact-title"
        ref={headingRef}
        tabIndex={-1}
        sx={{ outline: 'none' }}
        gutterBottom
      >
        {plural ? 'Ask these administrators to contact me' : 'Ask this administrator to contact me'}
      </Typography>
      <Typography>
        Leave your details and a short message: we email them to{' '}
        {plural ? "the location's administrators" : "the location's administrator"}, who can then contact you. You will
        not see their email address.
      </Typography>
      <ApiForm form={form} label="Ask to be contacted">
        <FormField id={fieldIds.name} name="name" label="Your name" autoComplete="name" required />
        <EmailField id={fieldIds.email} name="email" label="Your email address" required />
        <PhoneField id={fieldIds.phone} name="phone" label="Your phone number" autoComplete="tel" required />
        <FormCountedTextField
          id={fieldIds.message}
          label="Message"
          control={form.form.control}
          name="message"
          max={FIND_ADMIN_CONTACT_MESSAGE_MAX}
          registration={form.form.register('message')}
          error={form.form.formState.errors.message}
          required
        />
        <FormSubmitButton submitting={form.submitting}>Send my request</FormSubmitButton>
      </ApiForm>
    </Box>
  );
}
