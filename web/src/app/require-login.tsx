import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { paths } from '../config/paths';
import { useSession } from '../lib/session/session-context';

/**
 * Wraps a protected page (docs/requirements/session.md#login): without a login it redirects to `/login?next=<this
 * page>`, and the login page comes back here. Renders nothing until the server has said whether a session exists.
 */
export function RequireLogin({ children }: { children: ReactNode }) {
  const { loggedIn, sessionChecked } = useSession();
  const { pathname, search } = useLocation();
  if (loggedIn) return children;
  if (!sessionChecked) return null;
  return <Navigate to={paths.login.href(`${pathname}${search}`)} replace />;
}
