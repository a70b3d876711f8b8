import { ACCESS_REQUEST_ROUTES } from '@portal/contracts/access-requests';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { SECURITY_QUESTIONS } from '../../../testing/content-handlers';
import { server } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';

const cookies = { region: 'J5B', amaApproved: 'true' };
const TOKEN = 'invitation-token-abcdefghijklmnopqrstuvwxyz';
const STORAGE_KEY = 'portal.invitation-token';
const PASSWORD = 'violet lantern orbit tea';

type User = ReturnType<typeof renderApp>['user'];

/** Types like a paste (one input event): user-event's key-by-key typing is slow in jsdom. */
async function fill(user: User, label: RegExp | string, value: string) {
  const inputs = screen.getAllByLabelText(label).filter((element) => element.getAttribute('type') !== 'radio');
  expect(inputs).toHaveLength(1);
  await user.click(inputs[0]!);
  await user.paste(value);
}

afterEach(() => window.sessionStorage.clear());

// The account form is long and typing into it is slow in jsdom on a shared machine.
describe(
  '/register/user with an invitation (docs/requirements/staff-accounts.md#invitations)',
  { timeout: 120_000 },
  () => {
    it('starts at the account, sends the invitation with no location, and forgets it once registered', async () => {
      window.sessionStorage.setItem(STORAGE_KEY, TOKEN);
      const bodies: unknown[] = [];
      server.use(
        http.post(ACCESS_REQUEST_ROUTES.userRegistration, async ({ request }) => {
          bodies.push(await request.json());
          return HttpResponse.json({ data: { registered: true } }, { status: 201 });
        }),
      );
      const { user } = renderApp({ path: '/register/user', cookies });
      expect(await screen.findByTestId('register-invited')).toHaveTextContent(
        'the invited provider location is on your account as soon as it exists',
      );
      expect(await screen.findByRole('heading', { name: /Your account/ })).toBeInTheDocument();

      await fill(user, 'First name *', 'Pat');
      await fill(user, 'Last name *', 'Rivera');
      await fill(user, 'Email *', 'pat.rivera@clinic.example');
      await fill(user, 'Email again *', 'pat.rivera@clinic.example');
      await fill(user, /^Phone/, '410-555-0123');
      await user.click(
        within(screen.getByRole('group', { name: /date of birth/i })).getByRole('spinbutton', { name: 'Month' }),
      );
      await user.keyboard('03141975');
      await fill(user, /^Username/, 'pat.rivera');
      await fill(user, /^Password \*/, PASSWORD);
      await fill(user, /^Password again/, PASSWORD);
      for (const [index, question] of SECURITY_QUESTIONS.slice(0, 3).entries()) {
        const row = screen.getByRole('group', { name: `Security question ${index + 1}` });
        await user.selectOptions(within(row).getByRole('combobox', { name: /question/i }), question.key);
        await user.click(within(row).getByLabelText(/answer/i));
        await user.paste(`answer ${index + 1}`);
      }
      await user.click(screen.getByRole('button', { name: /register|create/i }));

      expect(await screen.findByRole('heading', { name: /Check your email/ })).toBeInTheDocument();
      expect(bodies).toHaveLength(1);
      expect(bodies[0]).toMatchObject({ email: 'pat.rivera@clinic.example', locations: [], invitationToken: TOKEN });
      expect(window.sessionStorage.getItem(STORAGE_KEY)).toBeNull();
    });

    it('without an invitation starts at the provider locations, as before', async () => {
      renderApp({ path: '/register/user', cookies });
      expect(await screen.findByRole('heading', { name: /Provider locations/ })).toBeInTheDocument();
      expect(screen.queryByTestId('register-invited')).not.toBeInTheDocument();
    });
  },
);
