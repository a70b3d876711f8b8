import { AUTH_ROUTES } from '@portal/contracts/paths';
import { ACCOUNT_ROUTES, type Account, type AccountSession, type ActivityItem, type Passkey } from '@portal/contracts';
import { http, HttpResponse } from 'msw';

/** A logged-in user's My account data, as the server answers it; tests override parts. */
export const demoAccount: Account = {
  username: 'demo.admin.j5',
  firstName: 'Dana',
  lastName: 'Whitfield',
  email: 'demo.admin.j5@example.com',
  phoneMasked: '***-***-4567',
  status: 'active',
  lastLoginAt: '2026-11-23T14:00:00.000Z',
  passwordChangedAt: '2026-11-01T10:00:00.000Z',
  mfa: { authenticatorEnrolledAt: '2026-11-02T10:00:00.000Z', passkeyCount: 1, recoveryCodesLeft: 9 },
  locations: [
    {
      legalName: 'Prairie Valley Clinic',
      jurisdiction: 'J5',
      lineOfBusiness: 'B',
      tinMasked: '*****6789',
      role: 'administrator',
      endedOn: null,
    },
    {
      legalName: 'Cedar Rapids Hospital',
      jurisdiction: 'J5',
      lineOfBusiness: 'A',
      tinMasked: '*****1234',
      role: 'user',
      endedOn: null,
    },
  ],
  securityQuestionIds: ['childhood-street', 'first-car', 'first-school'],
  recentAuthenticationSecondsLeft: 600,
};

export const demoSessions: AccountSession[] = [
  {
    createdAt: '2026-11-23T14:00:00.000Z',
    lastSeenAt: '2026-11-23T14:05:00.000Z',
    ip: '203.0.113.7',
    browser: 'Chrome 131 on Windows',
    current: true,
  },
  {
    createdAt: '2026-11-22T09:00:00.000Z',
    lastSeenAt: '2026-11-22T09:30:00.000Z',
    ip: '198.51.100.20',
    browser: 'Safari 18 on iOS',
    current: false,
  },
];

export const demoPasskeys: Passkey[] = [
  { id: 'pk-1', name: 'Work laptop', createdAt: '2026-11-10T10:00:00.000Z', lastUsedAt: null, backedUp: false },
];

export const activityItem = (n: number): ActivityItem => ({
  at: new Date(Date.UTC(2026, 10, 23, 12, 0) - n * 60_000).toISOString(),
  action: 'login',
  description: `Logged in (${n})`,
  outcome: n % 5 === 4 ? 'failure' : 'success',
  ip: '203.0.113.7',
});

/** The GET calls of My account, answering the data above (activity: 2 pages of 20 and 5). */
export function accountHandlers(
  data: { account?: Account; sessions?: AccountSession[]; passkeys?: Passkey[]; activity?: ActivityItem[] } = {},
) {
  const activity = data.activity ?? Array.from({ length: 25 }, (_, i) => activityItem(i));
  return [
    http.get(AUTH_ROUTES.session, () => HttpResponse.json({ data: { loggedIn: true, username: 'demo.admin.j5' } })),
    http.get(ACCOUNT_ROUTES.account, () => HttpResponse.json({ data: data.account ?? demoAccount })),
    http.get(ACCOUNT_ROUTES.sessions, () => HttpResponse.json({ data: { sessions: data.sessions ?? demoSessions } })),
    http.get(ACCOUNT_ROUTES.passkeys, () => HttpResponse.json({ data: { passkeys: data.passkeys ?? demoPasskeys } })),
    http.get(ACCOUNT_ROUTES.activity, ({ request }) => {
      const page = Number(new URL(request.url).searchParams.get('page') ?? '1');
      const items = activity.slice((page - 1) * 20, page * 20);
      return HttpResponse.json({ data: { items, page, pageSize: 20, hasMore: activity.length > page * 20 } });
    }),
  ];
}
