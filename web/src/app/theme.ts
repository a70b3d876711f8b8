import { createTheme, type Theme } from '@mui/material/styles';

/**
 * The keyboard focus indicator of every control (docs/requirements/public-site.md#every-page): a 3 px outline 2 px
 * outside the control, in `--portal-focus-ring`: the primary blue on the light page (13:1 on white), white on the dark
 * header and footer, which set the variable (components/layouts/app-layout.tsx) (13:1 on the primary blue). Links and other focusable elements get the same
 * outline as MUI's buttons, in place of the browser's own. A text field's focused border is also drawn by CSS, not
 * only by MUI's `Mui-focused` class, so a field of a part that has not hydrated yet (lib/lazy-part.tsx) shows it too.
 */
const focusOutline = (light: string) => `3px solid var(--portal-focus-ring, ${light})`;
const focusRingCss = (light: string) => `
a:focus-visible, summary:focus-visible, [tabindex]:not([tabindex="-1"]):focus-visible {
  outline: ${focusOutline(light)};
  outline-offset: 2px;
}
.MuiOutlinedInput-root:focus-within .MuiOutlinedInput-notchedOutline {
  border-width: 2px;
}
.MuiOutlinedInput-root:not(.Mui-error):focus-within .MuiOutlinedInput-notchedOutline {
  border-color: ${light};
}`;

/**
 * docs/requirements/public-site.md#look-and-feel: breakpoints, fonts and colours. Made at the first call, not when
 * the module loads: building a theme is a few milliseconds of merging objects, which main.tsx keeps out of the task
 * that evaluates the entry (docs/decisions/0018-server-rendering.md).
 */
let theme: Theme | undefined;
export function portalTheme(): Theme {
  return (theme ??= createTheme({
    breakpoints: { values: { xs: 0, sm: 600, md: 900, lg: 1440, xl: 1536 } },
    palette: {
      primary: { main: '#042789' },
      secondary: { main: '#6EFCAA', contrastText: '#042789' },
      error: { main: '#c61b03' },
      background: { default: '#f8fafc', paper: '#ffffff' },
      text: { primary: '#0f172a', secondary: '#334155' },
    },
    typography: {
      fontFamily: ['Lato', '"Lato fallback"', '"Source Sans Pro"', 'system-ui', 'Arial', 'sans-serif'].join(','),
      h1: { fontSize: '2rem', fontWeight: 700 },
      h2: { fontSize: '1.5rem', fontWeight: 700 },
      h3: { fontSize: '1.25rem', fontWeight: 700 },
    },
    components: {
      // The faces, the fallback's too, are in src/app/fonts.css, outside emotion's styles (issue 39).
      MuiCssBaseline: { styleOverrides: focusRingCss('#042789') },
      // No ripples: their code is left out of the build (web/vite.config.ts, docs/decisions/0060).
      // The ripple was a button's only sign of keyboard focus; an outline (as the jurisdiction tiles have) takes its
      // place on every button, link button, icon button, checkbox and menu item.
      MuiButtonBase: {
        defaultProps: { disableRipple: true },
        styleOverrides: {
          root: ({ theme }) => ({
            '&.Mui-focusVisible': { outline: focusOutline(theme.palette.primary.main), outlineOffset: 2 },
          }),
        },
      },
      MuiButton: {
        defaultProps: { disableElevation: true },
        styleOverrides: { root: { textTransform: 'none', fontWeight: 700 } },
      },
      MuiLink: { defaultProps: { underline: 'always' } },
      // A long email address in a result wraps instead of being cut off at a phone's width.
      MuiAlert: { styleOverrides: { message: { overflowWrap: 'anywhere', minWidth: 0 } } },
    },
  }));
}
