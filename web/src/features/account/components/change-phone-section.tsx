import { Typography } from '@mui/material';
import type { Account } from '@portal/contracts/account';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { lazyPart } from '../../../lib/lazy-part';
import { StatusMessage } from '../../../components/status/status-message';
import { ChangeButton, useChangeToggle } from './change-toggle';
import { MaskedPhone } from './masked-phone';

// Built and loaded only when "Change" is chosen (docs/decisions/0060).
const form = lazyPart(() => import('./change-phone-form').then((m) => m.ChangePhoneForm), { reserve: '9rem' });

/** Phone: the number on file (masked by the server), and its form behind "Change" (10 US digits). */
export function ChangePhoneSection({ account }: { account: UseQueryResult<Account> }) {
  const { open, openForm, closeForm } = useChangeToggle('phone');
  /** The new number, masked, once a change has gone through. */
  const [changedTo, setChangedTo] = useState<string>();
  const current = changedTo ?? account.data?.phoneMasked;

  return (
    <>
      <StatusMessage
        message={
          changedTo && (
            <>
              Your phone number was changed to <MaskedPhone phone={changedTo} />.
            </>
          )
        }
        testId="phone-status"
      />
      <Typography data-testid="phone-current">
        {current ? (
          <>
            The number we can call you on about your account: <MaskedPhone phone={current} />.
          </>
        ) : account.data ? (
          'No phone number is on file.'
        ) : (
          'The number we can call you on about your account.'
        )}
      </Typography>
      {open ? (
        <form.Part onChanged={setChangedTo} onClose={closeForm} />
      ) : (
        <ChangeButton id="phone" what="phone number" onClick={openForm} preload={form.load} />
      )}
    </>
  );
}
