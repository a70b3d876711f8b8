import { Alert, Box, Button, Typography } from '@mui/material';

/**
 * Shown when a page fails to render or its code cannot be loaded (e.g. after a deploy): never a blank screen. React
 * reports the error in the console.
 */
export function RouteErrorFallback() {
  return (
    <Box component="main" sx={{ maxWidth: 720, mx: 'auto', p: 4 }}>
      <Typography variant="h1" gutterBottom>
        Something went wrong
      </Typography>
      <Alert severity="error" sx={{ mb: 2 }}>
        An error has happened, please try again.
      </Alert>
      <Button variant="contained" onClick={() => window.location.reload()}>
        Reload the page
      </Button>
    </Box>
  );
}
