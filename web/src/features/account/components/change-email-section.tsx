import { Typography } from '@mui/material';
import type { Account } from '@portal/contracts/account';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { lazyPart } from '../../../lib/lazy-part';
import { StatusMessage } from '../../../components/status/status-message';
import { ChangeButton, useChangeToggle } from './change-toggle';

// The form (react-hook-form, its fields, the request's schema) is built and its code loaded only when "Change" is
// chosen, not with the section (docs/decisions/0060).
const form = lazyPart(() => import('./change-email-form').then((m) => m.ChangeEmailForm), { reserve: '12rem' });

/**
 * Email: the current address, and its form behind "Change". The new address is used only once the link sent to it
 * is opened; the current address is told that a change was asked for. The answer is the same whether or not another
 * account uses the new address.
 */
export function ChangeEmailSection({ account }: { account: UseQueryResult<Account> }) {
  const { open, openForm, closeForm } = useChangeToggle('email');
  const [status, setStatus] = useState<string>();

  return (
    <>
      <StatusMessage message={status} testId="email-status" />
      <Typography data-testid="email-current">
        {account.data ? (
          <>
            Your email address is <strong>{account.data.email}</strong>.
          </>
        ) : (
          'Your email address'
        )}
      </Typography>
      {open ? (
        <form.Part onStatus={setStatus} onClose={closeForm} />
      ) : (
        <ChangeButton id="email" what="email address" onClick={openForm} preload={form.load} />
      )}
    </>
  );
}
