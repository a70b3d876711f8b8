import { Typography } from '@mui/material';
import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A wizard step's heading. It takes focus when the step is shown after another one (not on the first page load),
 * so keyboard and screen-reader users start at the top of the new step.
 */
export function StepHeading({ children, focusOnShow }: { children: ReactNode; focusOnShow: boolean }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnShow) ref.current?.focus();
  }, [focusOnShow]);
  return (
    <Typography
      component="h2"
      variant="h5"
      ref={ref}
      tabIndex={-1}
      sx={{ mb: 2, outline: 'none' }}
      data-testid="step-heading"
    >
      {children}
    </Typography>
  );
}
