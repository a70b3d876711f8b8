import { List, ListItem, Skeleton, Typography } from '@mui/material';
import type { Account } from '@portal/contracts/account';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { StatusMessage } from '../../../components/status/status-message';
import { findSecurityQuestion, useSecurityQuestions } from '../../../lib/security-questions';
import { lazyPart } from '../../../lib/lazy-part';
import { ChangeButton, useChangeToggle } from './change-toggle';

// Built and loaded only when "Change" is chosen (docs/decisions/0060): its selects
// bring MUI's menu and popover, which the closed section does not need.
const form = lazyPart(() => import('./security-answers-form').then((m) => m.SecurityAnswersForm), {
  reserve: '30rem',
});

/** The user's questions as the CMS words them (the server names them by key; answers never leave it). */
function CurrentQuestions({ ids }: { ids: readonly string[] | undefined }) {
  const questions = useSecurityQuestions();
  if (!ids || questions.isPending) return <Skeleton width="60%" aria-hidden />;
  if (ids.length === 0) return <Typography>You have no security questions yet.</Typography>;
  return (
    <>
      <Typography>Your security questions (the answers are never shown):</Typography>
      <List dense sx={{ listStyleType: 'disc', pl: 3 }} data-testid="security-questions-current">
        {ids.map((id) => (
          <ListItem key={id} sx={{ display: 'list-item', pl: 0 }}>
            {(questions.data && findSecurityQuestion(questions.data, id)?.attributes.question) ?? id}
          </ListItem>
        ))}
      </List>
    </>
  );
}

/**
 * Security questions: the current three (questions only), and the form behind "Change": three different CMS
 * questions and their answers replace the old ones.
 */
export function SecurityAnswersSection({ account }: { account: UseQueryResult<Account> }) {
  const { open, openForm, closeForm } = useChangeToggle('security-questions');
  const [status, setStatus] = useState<string>();

  return (
    <>
      <StatusMessage message={status} testId="security-questions-status" />
      <CurrentQuestions ids={account.data?.securityQuestionIds} />
      {open ? (
        <form.Part onStatus={setStatus} onClose={closeForm} />
      ) : (
        <ChangeButton id="security-questions" what="security questions" onClick={openForm} preload={form.load} />
      )}
    </>
  );
}
