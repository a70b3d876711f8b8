import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { formatDateTime } from '../../../components/layouts/page-section';
import { keepSessionAlive } from '../api/ops-api';
import { IDLE_WARNING_MS, useOperator, useOpsSession } from '../ops-session';

/** "3 minutes", "1 minute", "less than a minute". */
const minutesText = (ms: number) => {
  const minutes = Math.floor(ms / 60_000);
  return minutes < 1 ? 'less than a minute' : minutes === 1 ? '1 minute' : `${minutes} minutes`;
};

/**
 * The warning before the console's session ends (docs/requirements/help-desk.md#sign-in): two minutes before the end
 * the server stated, a dialog says when. Before the 15 idle minutes end, "Stay signed in" makes a console request,
 * which the server counts as activity; the absolute limit cannot be moved, so then only signing in again helps.
 */
export function IdleWarning() {
  const { operator } = useOperator();
  const { signOut } = useOpsSession();
  const queryClient = useQueryClient();
  const id = useId();
  const idleEnd = Date.parse(operator.idleExpiresAt);
  const absoluteEnd = Date.parse(operator.absoluteExpiresAt);
  const end = Math.min(idleEnd, absoluteEnd);
  const absolute = absoluteEnd <= idleEnd;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    // Wake up exactly when the warning is due, not up to 15 s later.
    const due = end - IDLE_WARNING_MS - Date.now();
    if (due <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), due);
    return () => clearTimeout(timer);
  }, [end]);
  const [busy, setBusy] = useState(false);
  if (now < end - IDLE_WARNING_MS) return null;
  const left = Math.max(0, end - now);
  return (
    <Dialog open aria-labelledby={`${id}-title`} aria-describedby={`${id}-text`} data-testid="ops-idle-warning">
      <DialogTitle id={`${id}-title`}>Your console session is about to end</DialogTitle>
      <DialogContent>
        <DialogContentText id={`${id}-text`}>
          {absolute
            ? `Your console session reaches its time limit at ${formatDateTime(new Date(end).toISOString())} (in ${minutesText(left)}). Finish what you are doing; then sign in again.`
            : `You have not used the console for a while. For security, your session ends at ${formatDateTime(new Date(end).toISOString())} (in ${minutesText(left)}) unless you continue.`}
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void signOut()}>Sign out</Button>
        {!absolute && (
          <Button
            variant="contained"
            disabled={busy}
            onClick={() => {
              setBusy(true);
              void keepSessionAlive(queryClient).finally(() => setBusy(false));
            }}
          >
            Stay signed in
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
