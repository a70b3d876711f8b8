import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { errorMessagesRoute } from '../../../testing/content-handlers';
import { server } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';

// Region and license accepted, so the dialog flow leaves the login page alone.
const cookies = { region: 'J5B', amaApproved: 'true' };
const GENERATED = 'kT7wQm3xPa9RcV4yHn8e';
const TOO_SHORT = 'Your password must be at least 15 characters long.';
const REUSED = 'You used this password recently. Choose one you have not used before.';

/** A login whose password is 90+ days old: password → code → the change, which refuses a reused password once. */
function expiredLogin() {
  const changes: unknown[] = [];
  server.use(
    errorMessagesRoute({ Password_Too_Short: TOO_SHORT, Password_Reused: REUSED }),
    http.post('/api/auth/login', () => HttpResponse.json({ data: { next: 'mfa' } })),
    http.post('/api/auth/mfa', () =>
      HttpResponse.json({ data: { loggedIn: false, next: 'password-change', passwordMaxAgeDays: 90 } }),
    ),
    http.post('/api/password/generate/get', () => HttpResponse.json({ data: { password: GENERATED } })),
    http.post('/api/auth/password-change', async ({ request }) => {
      changes.push(await request.json());
      return changes.length === 1
        ? HttpResponse.json(
            { errorMessage: 'Password_Reused', fieldErrors: { newPassword: ['Password_Reused'] } },
            { status: 400 },
          )
        : HttpResponse.json({ data: { loggedIn: true } });
    }),
  );
  return changes;
}

describe(
  '/login with an expired password (docs/requirements/session.md#password-maximum-age)',
  // Four steps typed in full; on a loaded machine 29 s before the session calls and content reads were loaded on
  // first use (their modules now load during the test, not before it), 40 s after.
  { timeout: 60_000 },
  () => {
    it('after the code: "Your password has expired" with the limit, the checklist and the generator; errors next to the field; then on to next', async () => {
      const changes = expiredLogin();
      const { user, router } = renderApp({ path: '/login?next=%2Ftopics%2Fappeals', cookies });
      await user.type(await screen.findByLabelText(/username/i), 'demo.user.j5');
      await user.type(screen.getByLabelText(/^password/i), 'an old password');
      await user.click(screen.getByRole('button', { name: 'Log in' }));
      await user.type(await screen.findByRole('textbox', { name: /verification code/i }), '123456');
      await user.click(screen.getByRole('button', { name: 'Verify' }));

      const heading = await screen.findByRole('heading', { name: 'Your password has expired' });
      await waitFor(() => expect(heading).toHaveFocus());
      expect(screen.getByText(/once yours is 90 days old/)).toBeInTheDocument();
      // Not logged in yet: the header still offers Log in, and the page stays.
      expect(router.state.location.pathname).toBe('/login');
      expect(screen.queryByRole('button', { name: 'Log out' })).not.toBeInTheDocument();

      const field = screen.getByLabelText(/^new password/i);
      expect(field).toHaveAttribute('autocomplete', 'new-password');
      // Too short: refused in the browser, next to the field, nothing sent.
      await user.type(field, 'short');
      await user.click(screen.getByRole('button', { name: 'Set new password and continue' }));
      expect(await screen.findByTestId('form-error-summary')).toHaveTextContent(TOO_SHORT);
      await waitFor(() =>
        expect(document.getElementById('expired-new-password-helper-text')).toHaveTextContent(TOO_SHORT),
      );
      expect(changes).toEqual([]);

      // The generator fills the field; the server refuses it as reused, shown next to the field.
      await user.click(screen.getByRole('button', { name: 'Generate a password' }));
      await waitFor(() => expect(field).toHaveValue(GENERATED));
      await user.click(screen.getByRole('button', { name: 'Set new password and continue' }));
      await waitFor(() =>
        expect(document.getElementById('expired-new-password-helper-text')).toHaveTextContent(REUSED),
      );
      expect(field).toHaveAttribute('aria-invalid', 'true');
      // Once in the summary (a link to the field), not a second time as a general error.
      expect(screen.getByTestId('form-error-summary').textContent!.split(REUSED)).toHaveLength(2);
      expect(changes).toEqual([{ newPassword: GENERATED }]);

      await user.clear(field);
      await user.type(field, 'violet harbor seventeen lanterns');
      const checklist = document.getElementById('expired-new-password-checklist')!;
      expect(
        within(checklist)
          .getAllByRole('listitem')
          .every((item) => item.dataset.met === 'true'),
      ).toBe(true);
      await user.click(screen.getByRole('button', { name: 'Set new password and continue' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/topics/appeals'));
      expect(changes).toEqual([{ newPassword: GENERATED }, { newPassword: 'violet harbor seventeen lanterns' }]);
      expect(await screen.findByRole('button', { name: 'Log out' })).toBeInTheDocument();
    });
  },
);
