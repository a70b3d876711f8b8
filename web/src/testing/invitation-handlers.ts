import { ADMIN_INVITATIONS_PATH } from '@portal/contracts/invitations';
import { http, HttpResponse } from 'msw';

/**
 * The console's invitations section asks for the open invitations on every `/admin` render: by default none, and no
 * location to invite to (tests of the invitations override it with `server.use`).
 */
export const invitationHandlers = [
  http.get(ADMIN_INVITATIONS_PATH, () => HttpResponse.json({ data: { invitations: [], locations: [] } })),
];
