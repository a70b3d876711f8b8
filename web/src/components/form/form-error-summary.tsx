import { Alert, AlertTitle, Link, List, ListItem } from '@mui/material';
import { useEffect, useId, useRef } from 'react';

export interface FormErrorItem {
  /** The id of the field the message is about; absent for a message about the whole form. */
  fieldId?: string;
  message: string;
}

/**
 * The error summary at the top of a form (GOV.UK / USWDS pattern): takes focus when a submit produced errors, and
 * links each message to its field. `submitCount` changes on every submit, so a repeated failure is announced again;
 * within one submit it takes focus once.
 */
export function FormErrorSummary({
  errors,
  submitCount,
  title = 'There is a problem',
}: {
  errors: FormErrorItem[];
  submitCount: number;
  title?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // Several forms on one page (My account) may each show a summary: ids must not collide.
  const titleId = useId();
  const hasErrors = errors.length > 0;
  // Once per submit: errors that go and come back while the user types (a live check, a server code whose CMS text
  // arrives later) must not pull the focus out of the field being typed in.
  const focusedForSubmit = useRef<number>(undefined);
  useEffect(() => {
    if (!hasErrors || focusedForSubmit.current === submitCount) return;
    focusedForSubmit.current = submitCount;
    ref.current?.focus();
  }, [hasErrors, submitCount]);
  if (!hasErrors) return null;
  return (
    <Alert
      severity="error"
      ref={ref}
      tabIndex={-1}
      role="alert"
      aria-labelledby={titleId}
      sx={{ mb: 3 }}
      data-testid="form-error-summary"
    >
      <AlertTitle id={titleId}>{title}</AlertTitle>
      <List dense disablePadding>
        {errors.map((error) => (
          // Links at least 24 px tall with room between them (WCAG 2.2 target size), also when one wraps.
          <ListItem key={`${error.fieldId ?? 'form'}:${error.message}`} disableGutters sx={{ py: 0.5 }}>
            {error.fieldId ? (
              <Link
                sx={{ display: 'inline-block', minHeight: 24, py: '2px' }}
                href={`#${error.fieldId}`}
                onClick={(event) => {
                  event.preventDefault();
                  document.getElementById(error.fieldId!)?.focus();
                }}
              >
                {error.message}
              </Link>
            ) : (
              error.message
            )}
          </ListItem>
        ))}
      </List>
    </Alert>
  );
}
