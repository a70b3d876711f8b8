import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useEffect, useState } from 'react';
import { useSession } from '../../lib/session/session-context';

/** "14:05": minutes and seconds left. */
export function formatCountdown(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The whole timeout in words, e.g. "30 minutes". */
function minutesText(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} seconds`;
  const minutes = Math.round(ms / 60_000);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * docs/requirements/session.md#inactivity-dialogs: 'Are you still here?', the auto-logout time, a live countdown;
 * I'm still here → active (and the server session extended), Logout now → server logout and the ended dialog.
 */
export function SessionPromptDialog() {
  const { getRemainingTime, stayLoggedIn, logoutNow, timerConfig } = useSession();
  const [remaining, setRemaining] = useState(getRemainingTime);
  useEffect(() => {
    const id = setInterval(() => setRemaining(getRemainingTime()), 1000);
    return () => clearInterval(id);
  }, [getRemainingTime]);

  return (
    <Dialog open aria-labelledby="session-prompt-title" aria-describedby="session-prompt-text">
      <DialogTitle id="session-prompt-title">Are you still here?</DialogTitle>
      <DialogContent>
        <DialogContentText id="session-prompt-text">
          For your security you are logged out automatically after {minutesText(timerConfig.timeoutMs)} without
          activity.
        </DialogContentText>
        {/* Announced politely once a minute would be ideal; the text itself updates every second. */}
        <DialogContentText role="timer" aria-live="off" sx={{ mt: 2, fontWeight: 700 }} data-testid="session-countdown">
          Time left: {formatCountdown(remaining)}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void logoutNow()}>Logout now</Button>
        <Button variant="contained" onClick={() => void stayLoggedIn()}>
          I&apos;m still here
        </Button>
      </DialogActions>
    </Dialog>
  );
}
