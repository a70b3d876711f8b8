import type { DueRecertification, RecertificationDecisionValue } from '@portal/contracts/recertification';
import {
  Alert,
  Button,
  FormControlLabel,
  Radio,
  RadioGroup,
  Stack,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageSection, formatDate, useFocusSectionHeadingAfterRender } from '../../../components/layouts/page-section';
import { SectionQuery } from '../../../components/layouts/section-query';
import { useReauth } from '../../../components/reauth/reauth-provider';
import { StatusMessage } from '../../../components/status/status-message';
import { ScrollTable } from '../../../components/tables/scroll-table';
import { recertificationQueryKeys, submitRecertifications, useDueRecertifications } from './recertification-api';
import { DAY_MS } from '@portal/contracts/time';

const keyOf = (link: { userId: string; locationId: string }) => `${link.userId}/${link.locationId}`;

function dueText(link: DueRecertification): string {
  if (link.overdue) return `Overdue since ${formatDate(link.certifiedUntil)}: access suspended`;
  const days = Math.max(1, Math.ceil((Date.parse(link.certifiedUntil) - Date.now()) / DAY_MS));
  return `${formatDate(link.certifiedUntil)} (in ${days} ${days === 1 ? 'day' : 'days'})`;
}

/**
 * Recertification (docs/requirements/staff-accounts.md#annual-recertification): the people of the administrator's
 * locations whose access falls due within 45 days or is overdue, each with Keep or Remove; "Keep all" chooses Keep
 * for every row; Submit sends the chosen decisions at once. Native radio groups, one per row, labelled with the
 * person and location: usable with the keyboard alone (Tab between rows, arrows within one).
 */
export function RecertificationSection() {
  const due = useDueRecertifications();
  const queryClient = useQueryClient();
  const { withReauth } = useReauth();
  const [decisions, setDecisions] = useState<Record<string, RecertificationDecisionValue>>({});
  const [status, setStatus] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const focusHeadingAfterRender = useFocusSectionHeadingAfterRender('recertification');
  const links = due.data?.links ?? [];
  const chosen = links.filter((link) => decisions[keyOf(link)]);

  const submit = async () => {
    if (!chosen.length) {
      setProblem('Choose Keep or Remove for at least one person.');
      return;
    }
    setProblem(undefined);
    setSubmitting(true);
    try {
      const result = await withReauth(() =>
        submitRecertifications(
          chosen.map((link) => ({
            userId: link.userId,
            locationId: link.locationId,
            decision: decisions[keyOf(link)]!,
          })),
        ),
      );
      focusHeadingAfterRender();
      setDecisions({});
      setStatus(
        `Done: ${result.kept} kept for another year, ${result.removed} removed. The changes are recorded in each person's activity.`,
      );
      await queryClient.invalidateQueries({ queryKey: recertificationQueryKeys.all });
    } catch {
      setProblem('Your decisions could not be saved. Reload the page and try again.');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <PageSection id="recertification" title="Recertification">
      <StatusMessage message={status} testId="recertification-status" />
      <SectionQuery
        query={due}
        loadingLabel="Loading the recertifications"
        isEmpty={(data) => data.links.length === 0}
        empty={
          <Typography data-testid="recertification-empty">
            Nobody&apos;s access to your locations is due for recertification in the next 45 days.
          </Typography>
        }
      >
        {() => (
          <Stack spacing={2}>
            <Typography>
              Each year, confirm who still needs access to your locations. Keep renews a person&apos;s access for
              another year; Remove ends it. Access not recertified by its date is suspended. You cannot recertify
              yourself: another administrator of the location does.
            </Typography>
            <ScrollTable
              label="Access due for recertification"
              columns={['Name', 'Username', 'Location', 'Role', 'Certified until', 'Decision']}
            >
              <TableBody>
                {links.map((link) => {
                  const key = keyOf(link);
                  return (
                    <TableRow key={key}>
                      <TableCell component="th" scope="row" data-label="Name">
                        {link.name}
                      </TableCell>
                      <TableCell data-label="Username">{link.username}</TableCell>
                      <TableCell data-label="Location">
                        {link.legalName} (NPI {link.npi})
                      </TableCell>
                      <TableCell data-label="Role">
                        {link.role === 'administrator' ? 'Administrator' : 'User'}
                      </TableCell>
                      <TableCell data-label="Certified until">{dueText(link)}</TableCell>
                      <TableCell data-label="Decision">
                        <RadioGroup
                          row
                          aria-label={`Decision for ${link.name} at ${link.legalName}`}
                          name={`decision-${key}`}
                          value={decisions[key] ?? ''}
                          onChange={(event) =>
                            setDecisions((current) => ({
                              ...current,
                              [key]: event.target.value as RecertificationDecisionValue,
                            }))
                          }
                        >
                          <FormControlLabel value="keep" control={<Radio />} label="Keep" />
                          <FormControlLabel value="remove" control={<Radio />} label="Remove" />
                        </RadioGroup>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </ScrollTable>
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
              <Button
                variant="outlined"
                onClick={() => setDecisions(Object.fromEntries(links.map((link) => [keyOf(link), 'keep' as const])))}
              >
                Keep all
              </Button>
              <Button variant="contained" onClick={() => void submit()} disabled={submitting}>
                Submit decisions
              </Button>
            </Stack>
            {/* Next to the button that caused it (issue 38 item 4), not above the list. */}
            {problem && (
              <Alert severity="error" role="alert">
                {problem}
              </Alert>
            )}
          </Stack>
        )}
      </SectionQuery>
    </PageSection>
  );
}
