import { Box } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * A description list of facts, a term and its value a row (one under the other on a phone): a profile, a person or
 * a location in the help-desk console. Its children are `dt`/`dd` pairs, or `Fact`s.
 */
export function FactList({ children }: { children: ReactNode }) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
        columnGap: 3,
        rowGap: { xs: 0, sm: 1 },
        m: 0,
        '& dt': { fontWeight: 700 },
        '& dd': { m: 0, mb: { xs: 1, sm: 0 }, overflowWrap: 'anywhere' },
      }}
    >
      {children}
    </Box>
  );
}

/** A term and its value in a `FactList`. */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}
