import { Grid, Paper, Stack, Typography, useMediaQuery, type Theme } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * A person's or a location's page in the help-desk console (docs/requirements/help-desk.md): the name and its state
 * chip, the details, and the Actions panel (what the desk can do, and where the result of an action is announced).
 * A phone shows the actions before the details, a desk on their right: the panel is placed in the document where it
 * is drawn (before the details on a phone, after them from `md` up), never moved by CSS `order`, so the keyboard's
 * order follows the reading order at every width.
 */
export function RecordLayout({
  title,
  chip,
  actionsId,
  actions,
  children,
}: {
  title: string;
  chip: ReactNode;
  /** The id of the Actions heading (the panel's name). */
  actionsId: string;
  actions: ReactNode;
  children: ReactNode;
}) {
  // Read when first drawn (the console is drawn in the browser only), so the panel does not move after a first paint.
  const desk = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'), { noSsr: true });
  const panel = (
    <Grid size={{ xs: 12, md: 4 }}>
      <Paper
        component="section"
        variant="outlined"
        aria-labelledby={actionsId}
        sx={{ p: { xs: 2, sm: 3 }, position: { md: 'sticky' }, top: { md: 16 } }}
      >
        <Typography component="h2" variant="h5" id={actionsId} gutterBottom>
          Actions
        </Typography>
        {actions}
      </Paper>
    </Grid>
  );
  return (
    <>
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <Typography component="h1" variant="h4">
          {title}
        </Typography>
        {chip}
      </Stack>
      <Grid container spacing={3}>
        {!desk && panel}
        <Grid size={{ xs: 12, md: 8 }}>{children}</Grid>
        {desk && panel}
      </Grid>
    </>
  );
}
