import { Typography } from '@mui/material';
import { useEffect, useRef } from 'react';

/** A step's heading with its progress ("Step 2 of 4"); takes focus when a later step replaces an earlier one. */
export function StepHeading({ step, of, title, focus }: { step: number; of: number; title: string; focus: boolean }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <Typography component="h2" variant="h6" ref={ref} tabIndex={-1} sx={{ outline: 'none', mb: 1 }}>
      <Typography component="span" variant="body2" sx={{ display: 'block', color: 'text.secondary' }}>
        Step {step} of {of}
      </Typography>
      {title}
    </Typography>
  );
}
