import { Box, Typography } from '@mui/material';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * The heading of a step of a multi-step flow (registration, login, reactivation): an `h2` under the page's `h1`,
 * with its progress ("Step 2 of 4") above the title where the flow counts its steps. `focus`: it takes the focus
 * when it appears, for a step shown after another one (never on the first page load), so keyboard and screen-reader
 * users start at the top of the new step.
 */
export function StepHeading({
  children,
  progress,
  focus,
  id,
}: {
  children: ReactNode;
  progress?: { step: number; of: number };
  focus: boolean;
  id?: string;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <Typography component="h2" variant="h5" id={id} ref={ref} tabIndex={-1} sx={{ outline: 'none', mb: 2 }}>
      {progress && (
        <Box
          component="span"
          sx={{ display: 'block', typography: 'body2', color: 'text.secondary' }}
          data-testid="step-progress"
        >
          Step {progress.step} of {progress.of}
        </Box>
      )}
      {children}
    </Typography>
  );
}
