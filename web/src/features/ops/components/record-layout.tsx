import { Grid, Paper, Stack, Typography, useMediaQuery, type Theme } from '@mui/material';
import type { ReactNode } from 'react';
import { useRenderEnvironment } from '../../../lib/render-environment';

// A phone's or tablet's browser says so in its User-Agent (`Mobi` on phones, `Android`, `iPhone`, `iPad`).
const HANDHELD = /Mobi|Android|iPhone|iPad/i;

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
  // The server cannot know the width: it draws the desk's layout for a desk's browser and the phone's for a handheld's
  // (User-Agent), and hydration keeps that drawing; then the width decides (a desk browser in a narrow window redraws
  // once). A page opened by a link in the app reads the width at its first render (docs/decisions/0088).
  const { userAgent } = useRenderEnvironment();
  const desk = useMediaQuery((theme: Theme) => theme.breakpoints.up('md'), {
    defaultMatches: !HANDHELD.test(userAgent),
  });
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
