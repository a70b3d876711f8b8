import { Alert, AlertTitle, type AlertColor } from '@mui/material';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * What a submitted form led to (a confirmation, instructions, a result), in place of the form: its title takes
 * focus when it appears, so keyboard and screen-reader users land on it instead of on a form that went away.
 */
export function FormOutcome({
  title,
  children,
  severity = 'success',
  testId = 'form-outcome',
}: {
  title: string;
  children?: ReactNode;
  severity?: AlertColor;
  testId?: string;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <Alert
      severity={severity}
      sx={{ mb: 3 }}
      data-testid={testId}
      component="section"
      aria-labelledby={`${testId}-title`}
    >
      <AlertTitle
        component="h2"
        id={`${testId}-title`}
        ref={headingRef}
        tabIndex={-1}
        sx={{ fontSize: '1.25rem', fontWeight: 700, outline: 'none' }}
      >
        {title}
      </AlertTitle>
      {children}
    </Alert>
  );
}
