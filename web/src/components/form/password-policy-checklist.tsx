import { Box, List, ListItem, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordRuleResults,
  type PasswordProblem,
} from '@portal/contracts/password-rules';
import { useEffect, useState } from 'react';
import { visuallyHidden } from './visually-hidden';

/** How long typing must pause before the checklist's state is announced (not on every keystroke). */
export const CHECKLIST_ANNOUNCE_DELAY_MS = 1200;

const ruleTexts: Record<PasswordProblem, string> = {
  Password_Too_Short: `At least ${PASSWORD_MIN_LENGTH} characters`,
  Password_Too_Long: `No more than ${PASSWORD_MAX_LENGTH} characters`,
  Password_Too_Common: 'Not a common or easily guessed password',
  Password_Contains_Personal_Info: 'Does not contain your name, username or email',
};
const ruleOrder = Object.keys(ruleTexts) as PasswordProblem[];

/**
 * The list of common passwords, loaded on demand (about 64 kB): the checklist works without it until it arrives,
 * and the server applies it anyway.
 */
function usePasswordBlocklist(): ReadonlySet<string> | undefined {
  return useQuery({
    queryKey: ['password-blocklist'],
    queryFn: async () =>
      new Set((await import('@portal/contracts/password-blocklist.json')).default) as ReadonlySet<string>,
    staleTime: Infinity,
  }).data;
}

/** Each rule of the password policy with whether it holds, from the same rules the server applies. */
export function usePasswordRules(password: string, personal: readonly (string | undefined)[] = []) {
  const blocklist = usePasswordBlocklist();
  const broken = passwordRuleResults(password, { personal, blocklist });
  // An empty field meets nothing yet ("not common" and "not personal" would read as met before typing), except the
  // maximum length: "no more than 128 characters" holds, and "not met yet" beside it would only puzzle.
  return ruleOrder.map((code) => ({
    code,
    text: ruleTexts[code],
    met: password === '' ? code === 'Password_Too_Long' : !broken[code],
  }));
}

/**
 * The live password-policy checklist (docs/requirements/portal.md#password-policy): every rule with a visible and a
 * spoken state. The list itself is not a live region; a polite status line says how many rules hold once typing
 * pauses, so a screen reader is not interrupted on every keystroke.
 */
export function PasswordPolicyChecklist({
  id,
  password,
  personal,
}: {
  id: string;
  password: string;
  /** The user's names, username and email: words from them may not appear in the password. */
  personal?: readonly (string | undefined)[];
}) {
  const rules = usePasswordRules(password, personal);
  const metCount = rules.filter((rule) => rule.met).length;
  const summary =
    password === ''
      ? ''
      : metCount === rules.length
        ? 'The password meets every rule.'
        : `The password meets ${metCount} of ${rules.length} rules.`;
  const [announced, setAnnounced] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setAnnounced(summary), CHECKLIST_ANNOUNCE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [summary]);

  return (
    <Box id={id} sx={{ mt: 1, mb: 1 }}>
      <Typography variant="body2" component="p" id={`${id}-title`} sx={{ fontWeight: 700 }}>
        Your password must be:
      </Typography>
      <List dense disablePadding aria-labelledby={`${id}-title`}>
        {rules.map((rule) => (
          <ListItem
            key={rule.code}
            disableGutters
            sx={{ py: 0, color: rule.met ? 'success.dark' : 'text.primary' }}
            data-rule={rule.code}
            data-met={rule.met}
          >
            <Box component="span" aria-hidden="true" sx={{ width: '1.5em', flexShrink: 0, fontWeight: 700 }}>
              {rule.met ? '✓' : '✗'}
            </Box>
            {rule.text}
            <Box component="span" sx={visuallyHidden}>
              {rule.met ? ' (met)' : ' (not met yet)'}
            </Box>
          </ListItem>
        ))}
      </List>
      <Box role="status" aria-live="polite" sx={visuallyHidden} data-testid="password-checklist-status">
        {announced}
      </Box>
    </Box>
  );
}
