import { Typography } from '@mui/material';
import type { Account } from '@portal/contracts/account';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate } from '../../../components/layouts/page-section';
import { StatusMessage } from '../../../components/status/status-message';
import { lazyPart } from '../../../lib/lazy-part';
import { ChangeButton, useChangeToggle } from './change-toggle';

// Built and loaded only when "Change" is chosen (docs/decisions/0060).
const form = lazyPart(() => import('./change-password-form').then((m) => m.ChangePasswordForm), {
  reserve: '24rem',
});

/**
 * Password: when it was last changed, and its form behind "Change": the current one and a new one under the shared
 * policy, with its live checklist. The other sessions end; this one stays.
 */
export function ChangePasswordSection({ account }: { account: UseQueryResult<Account> }) {
  const [status, setStatus] = useState<string>();
  const { open, openForm, closeForm } = useChangeToggle('password');
  const personal = account.data
    ? [account.data.firstName, account.data.lastName, account.data.username, account.data.email]
    : [];

  return (
    <>
      <StatusMessage message={status} testId="password-status" />
      <Typography data-testid="password-current">
        {account.data
          ? `Your password was last changed on ${formatDate(account.data.passwordChangedAt)}.`
          : 'Your password'}
      </Typography>
      {open ? (
        <form.Part personal={personal} onStatus={setStatus} onClose={closeForm} />
      ) : (
        <ChangeButton id="password" what="password" onClick={openForm} preload={form.load} />
      )}
    </>
  );
}
