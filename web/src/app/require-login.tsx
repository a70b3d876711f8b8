import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '../config/paths';
import { useRecertificationOverdue } from '../features/admin/recertification/recertification-api';
import { useSession } from '../lib/session/session-context';

/**
 * Wraps a protected page (docs/requirements/session.md#login): without a login it redirects to `/login?next=<this
 * page>`, and the login page comes back here. An administrator with overdue recertifications goes to `/admin/recertify`. Renders nothing until the server has said whether a session exists.
 */
export function RequireLogin({ children }: { children: ReactNode }) {
  const { loggedIn, sessionChecked } = useSession();
  const { pathname, search } = useLocation();
  // An administrator with overdue recertifications is held on the recertification screen until they are decided
  // (docs/requirements/staff-accounts.md#annual-recertification); the header's Log out stays.
  const overdue = useRecertificationOverdue(loggedIn);
  // The page asked for goes with it, so the recertification screen can say what is held and why.
  if (loggedIn && overdue && pathname !== paths.recertify.path)
    return <Navigate to={paths.recertify.href()} replace state={{ heldFrom: pathname }} />;
  if (loggedIn) return children;
  if (!sessionChecked) return null;
  return <Navigate to={paths.login.href(`${pathname}${search}`)} replace />;
}
