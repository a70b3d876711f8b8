import { AppBar, Link, Toolbar, Typography, type SxProps, type Theme } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

/** The focus indicator's colour on the dark header and footer (white: 13:1 on the primary blue; app/theme.ts). */
export const FOCUS_RING_ON_DARK = '#ffffff';

/** "Skip to main content": off screen until it has the keyboard's focus; the page's `<main>` is `#main-content`. */
export function SkipLink() {
  return (
    <Link
      href="#main-content"
      sx={{
        position: 'absolute',
        left: -10000,
        top: 8,
        zIndex: 2000,
        bgcolor: 'background.paper',
        p: 1,
        '&:focus': { left: 8 },
      }}
    >
      Skip to main content
    </Link>
  );
}

/**
 * The dark header of the portal and of the help-desk console: its name (a link home) over a line that says what it
 * serves, then `children` (the jurisdiction, the account's or the operator's controls). On a phone the name takes a
 * row of its own; from `sm` up everything is on one line.
 */
export function SiteHeader({
  home,
  name,
  line,
  toolbarSx,
  children,
}: {
  home: string;
  name: string;
  line: string;
  toolbarSx?: SxProps<Theme>;
  children: ReactNode;
}) {
  return (
    <AppBar position="static" component="header" elevation={0} sx={{ '--portal-focus-ring': FOCUS_RING_ON_DARK }}>
      <Toolbar sx={[{ gap: 2, flexWrap: 'wrap', py: 1 }, ...(Array.isArray(toolbarSx) ? toolbarSx : [toolbarSx])]}>
        <Link
          component={RouterLink}
          to={home}
          color="inherit"
          underline="none"
          sx={{ flexGrow: 1, flexBasis: { xs: '100%', sm: 'auto' } }}
        >
          <Typography component="span" variant="h6" sx={{ fontWeight: 700, display: 'block', lineHeight: 1.2 }}>
            {name}
          </Typography>
          <Typography component="span" variant="body2" sx={{ color: 'secondary.main', display: 'block' }}>
            {line}
          </Typography>
        </Link>
        {children}
      </Toolbar>
    </AppBar>
  );
}
