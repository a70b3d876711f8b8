import { ADMIN_INVITATIONS_PATH } from '@portal/contracts/invitations';
import { RECERTIFICATIONS_PATH } from '@portal/contracts/recertification';
import { http, HttpResponse } from 'msw';

/**
 * The console's own sections ask on every `/admin` render: by default no open invitation and no location to invite
 * to, and no recertification due (tests of those sections override them with `server.use`).
 */
export const adminConsoleHandlers = [
  http.get(RECERTIFICATIONS_PATH, () => HttpResponse.json({ data: { links: [] } })),
  http.get(ADMIN_INVITATIONS_PATH, () => HttpResponse.json({ data: { invitations: [], locations: [] } })),
];
