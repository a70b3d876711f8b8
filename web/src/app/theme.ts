import { createTheme } from '@mui/material/styles';

/** docs/requirements/public-site.md#look-and-feel: breakpoints, fonts and colours. */
export const theme = createTheme({
  breakpoints: { values: { xs: 0, sm: 600, md: 900, lg: 1440, xl: 1536 } },
  palette: {
    primary: { main: '#042789' },
    secondary: { main: '#6EFCAA', contrastText: '#042789' },
    error: { main: '#c61b03' },
    background: { default: '#f8fafc', paper: '#ffffff' },
    text: { primary: '#0f172a', secondary: '#334155' },
  },
  typography: {
    fontFamily: ['Lato', '"Source Sans Pro"', 'system-ui', 'Arial', 'sans-serif'].join(','),
    h1: { fontSize: '2rem', fontWeight: 700 },
    h2: { fontSize: '1.5rem', fontWeight: 700 },
    h3: { fontSize: '1.25rem', fontWeight: 700 },
  },
  components: {
    MuiButton: { defaultProps: { disableElevation: true }, styleOverrides: { root: { textTransform: 'none', fontWeight: 700 } } },
    MuiLink: { defaultProps: { underline: 'always' } },
  },
});
