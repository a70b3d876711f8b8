import { screen, waitFor, within } from '@testing-library/react';
import { ACCOUNT_ROUTES } from '@portal/contracts';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { accountHandlers, demoAccount, demoSessions } from '../../../testing/account-handlers';
import { defaultErrorMessages, errorMessagesRoute, SECURITY_QUESTIONS } from '../../../testing/content-handlers';
import { answerPostsInTurn, server } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';

// Region and license accepted, so the dialog flow leaves the page alone.
const cookies = { region: 'J5B', amaApproved: 'true' };
const section = async (name: string) => screen.findByRole('region', { name });
/**
 * A section whose form opens from its "Change" action: the action chosen, the section answered once its form (loaded
 * when opened) is there with the focus on its first field.
 */
async function openForm(user: ReturnType<typeof renderApp>['user'], name: string) {
  const region = await section(name);
  await user.click(await within(region).findByRole('button', { name: /^Change / }));
  const form = await within(region).findByRole('form');
  await waitFor(() => expect(form).toContainElement(document.activeElement as HTMLElement));
  return region;
}
const RECOVERY_CODES = Array.from({ length: 10 }, (_, i) => `new-code-${i}`);

function renderAccount() {
  return renderApp({ path: '/account', cookies });
}

const ok = (data: unknown) => () => HttpResponse.json({ data });
const DEMO_PASSWORD_TYPED = 'my current password';
const fail = (status: number, code: string) => () => HttpResponse.json({ errorMessage: code }, { status });

// Each test types into several fields of a large page: more than the default 5 s on a busy machine.
describe('/account, My account (docs/requirements/session.md#my-account)', { timeout: 30_000 }, () => {
  it('without a login redirects to /login?next=/account', async () => {
    const { router } = renderAccount();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toBe('?next=%2Faccount');
  });

  it('shows the profile, the locations with masked TIN and role, and a My account link in the header', async () => {
    server.use(...accountHandlers());
    renderAccount();
    expect(await screen.findByRole('heading', { level: 1, name: 'My account' })).toBeInTheDocument();
    const profile = await section('Profile');
    expect(await within(profile).findByText('Dana Whitfield')).toBeInTheDocument();
    expect(within(profile).getByText('demo.admin.j5@example.com')).toBeInTheDocument();
    expect(within(profile).getByText('***-***-4567')).toBeInTheDocument();
    const locations = await section('Provider locations and roles');
    const rows = within(locations).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'Prairie Valley ClinicJ5 · Part B*****6789Administrator',
      'Cedar Rapids HospitalJ5 · Part A*****1234User',
    ]);
    expect(screen.getByRole('link', { name: 'My account' })).toHaveAttribute('href', '/account');
  });

  it('an end-dated location is still listed, with the day it ended', async () => {
    server.use(...accountHandlers());
    const [first, second] = demoAccount.locations;
    server.use(
      http.get(ACCOUNT_ROUTES.account, () =>
        HttpResponse.json({ data: { ...demoAccount, locations: [first, { ...second!, endedOn: '2026-11-23' }] } }),
      ),
    );
    renderAccount();
    const locations = await section('Provider locations and roles');
    const rows = (await within(locations).findAllByRole('row')).slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'Prairie Valley ClinicJ5 · Part B*****6789Administrator',
      'Cedar Rapids HospitalThis location ended on Nov 23, 2026.J5 · Part A*****1234User',
    ]);
  });

  it('loading skeletons until the data arrives, then empty states', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.use(...accountHandlers({ passkeys: [], activity: [] }));
    server.use(
      http.get(ACCOUNT_ROUTES.account, async () => {
        await released;
        return HttpResponse.json({ data: { ...demoAccount, locations: [], phoneMasked: null } });
      }),
      http.get(ACCOUNT_ROUTES.sessions, () => HttpResponse.json({ data: { sessions: [demoSessions[0]] } })),
    );
    renderAccount();
    expect(await screen.findByRole('progressbar', { name: 'Loading your profile' })).toHaveAttribute(
      'aria-busy',
      'true',
    );
    release();
    const locations = await section('Provider locations and roles');
    expect(
      await within(locations).findByText('No provider locations are linked to your account yet.'),
    ).toBeInTheDocument();
    expect(within(await section('Profile')).getByText('Not on file')).toBeInTheDocument();
    expect(await within(await section('Passkeys')).findByText('You have no passkeys yet.')).toBeInTheDocument();
    expect(await within(await section('Recent activity')).findByText('No account activity yet.')).toBeInTheDocument();
    const sessions = await section("Where you're logged in");
    expect(await within(sessions).findByText('You are not logged in anywhere else.')).toBeInTheDocument();
    expect(within(sessions).queryByRole('button', { name: 'Sign out everywhere else' })).not.toBeInTheDocument();
  });

  it('a section that cannot load shows the CMS text of the error and tries again on request', async () => {
    let failing = true;
    server.use(...accountHandlers());
    server.use(
      http.get(ACCOUNT_ROUTES.sessions, () =>
        failing
          ? HttpResponse.json({ errorMessage: 'Generic_Error_For_Services' }, { status: 500 })
          : HttpResponse.json({ data: { sessions: demoSessions } }),
      ),
    );
    const { user } = renderAccount();
    const sessions = await section("Where you're logged in");
    expect(await within(sessions).findByText(defaultErrorMessages.Generic_Error_For_Services!)).toBeInTheDocument();
    failing = false;
    await user.click(within(sessions).getByRole('button', { name: 'Try again' }));
    expect(await within(sessions).findByText('Safari 18 on iOS')).toBeInTheDocument();
  });

  it('sessions: this one marked; "Sign out everywhere else" asks first, then announces the result', async () => {
    let ended = false;
    server.use(...accountHandlers());
    server.use(
      http.get(ACCOUNT_ROUTES.sessions, () =>
        HttpResponse.json({ data: { sessions: ended ? [demoSessions[0]] : demoSessions } }),
      ),
      http.post(ACCOUNT_ROUTES.endOtherSessions, () => {
        ended = true;
        return HttpResponse.json({ data: { ended: 1 } });
      }),
    );
    const { user } = renderAccount();
    const sessions = await section("Where you're logged in");
    const current = (await within(sessions).findByText('Chrome 131 on Windows')).closest('tr')!;
    expect(within(current).getByText('This session')).toBeInTheDocument();
    expect(within(current).getByText('203.0.113.7')).toBeInTheDocument();
    const other = within(sessions).getByText('Safari 18 on iOS').closest('tr')!;
    expect(within(other).queryByText('This session')).not.toBeInTheDocument();

    await user.click(within(sessions).getByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out everywhere else?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(ended).toBe(false);

    await user.click(within(sessions).getByRole('button', { name: 'Sign out everywhere else' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Sign out everywhere else?' })).getByRole('button', {
        name: 'Sign out everywhere else',
      }),
    );
    expect(
      await within(screen.getByTestId('sessions-status')).findByText(/signed out of 1 other session/),
    ).toBeVisible();
    expect(screen.getByTestId('sessions-status')).toHaveAttribute('role', 'status');
    await waitFor(() => expect(within(sessions).queryByText('Safari 18 on iOS')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(within(sessions).getByRole('heading', { name: "Where you're logged in" })).toHaveFocus(),
    );
  });

  it('recent activity: newest first as the server sends it, a page at a time', async () => {
    server.use(...accountHandlers());
    const { user } = renderAccount();
    const activity = await section('Recent activity');
    expect(await within(activity).findByText('Logged in (0)')).toBeInTheDocument();
    expect(within(activity).getAllByRole('row')).toHaveLength(21);
    expect(within(activity).getByRole('button', { name: 'Newer' })).toBeDisabled();
    await user.click(within(activity).getByRole('button', { name: 'Older' }));
    expect(await within(activity).findByText('Logged in (20)')).toBeInTheDocument();
    expect(within(activity).getByTestId('activity-page')).toHaveTextContent('Page 2');
    expect(within(activity).getAllByRole('row')).toHaveLength(6);
    expect(within(activity).getByRole('button', { name: 'Older' })).toBeDisabled();
  });
});

/** Opens the password form, types the current and a new password and submits; answers the form. */
async function fillPasswordChange(user: ReturnType<typeof renderApp>['user']) {
  const form = await openForm(user, 'Password');
  await user.type(
    within(form).getByLabelText(/^current password/i, { selector: 'input' }),
    'Harbor lantern quartz meadow',
  );
  await user.type(within(form).getByLabelText(/^new password/i, { selector: 'input' }), 'Violet canyon ember rhythm');
  await user.click(within(form).getByRole('button', { name: 'Change password' }));
  return form;
}

describe('account changes and re-authentication', { timeout: 30_000 }, () => {
  afterEach(() => {
    delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
  });

  it('change password answered "re-authentication required": the dialog asks for the password, then the change is sent once more', async () => {
    server.use(...accountHandlers());
    const changes = answerPostsInTurn(ACCOUNT_ROUTES.password, [
      fail(401, 'Reauthentication_Required'),
      ok({ changed: true, otherSessionsEnded: 1 }),
    ]);
    const reauths = answerPostsInTurn(ACCOUNT_ROUTES.reauthenticate, [
      fail(400, 'Login_Failed'),
      ok({ recentAuthenticationSecondsLeft: 1200 }),
    ]);
    const { user } = renderAccount();
    await fillPasswordChange(user);

    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    const password = within(dialog).getByLabelText(/^password/i);
    await waitFor(() => expect(password).toHaveFocus());
    await user.type(password, 'wrong password');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText(defaultErrorMessages.Login_Failed!)).toBeInTheDocument();
    expect(changes).toHaveLength(1);

    await user.type(within(dialog).getByLabelText(/^password/i), 'Harbor lantern quartz meadow');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(
      await within(screen.getByTestId('password-status')).findByText(
        'Your password was changed. You were logged out of 1 other session.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(reauths).toEqual([{ password: 'wrong password' }, { password: 'Harbor lantern quartz meadow' }]);
    expect(changes).toHaveLength(2);
    expect(changes[1]).toEqual({
      currentPassword: 'Harbor lantern quartz meadow',
      newPassword: 'Violet canyon ember rhythm',
    });
  });

  it('cancelling the re-authentication dialog changes nothing and says why', async () => {
    server.use(...accountHandlers());
    const changes = answerPostsInTurn(ACCOUNT_ROUTES.password, [fail(401, 'Reauthentication_Required')]);
    const { user } = renderAccount();
    await fillPasswordChange(user);
    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const summary = await screen.findByTestId('form-error-summary');
    expect(summary).toHaveTextContent(defaultErrorMessages.Reauthentication_Required!);
    expect(changes).toHaveLength(1);
  });

  it('change password: a wrong current password shows its message; the live checklist follows the new password', async () => {
    server.use(...accountHandlers());
    answerPostsInTurn(ACCOUNT_ROUTES.password, [fail(400, 'Current_Password_Invalid')]);
    const { user } = renderAccount();
    const form = await openForm(user, 'Password');
    await user.type(within(form).getByLabelText(/^new password/i, { selector: 'input' }), 'short');
    expect(
      within(form)
        .getByText(/at least 15 characters/i)
        .closest('li'),
    ).toHaveAttribute('data-met', 'false');
    await user.type(within(form).getByLabelText(/^new password/i, { selector: 'input' }), ' but now long enough');
    expect(
      within(form)
        .getByText(/at least 15 characters/i)
        .closest('li'),
    ).toHaveAttribute('data-met', 'true');
    await user.type(within(form).getByLabelText(/^current password/i, { selector: 'input' }), 'not my password');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByText(defaultErrorMessages.Current_Password_Invalid!)).toBeInTheDocument();
    expect(within(form).getByLabelText(/^current password/i, { selector: 'input' })).toHaveValue('');
  });

  it.each(['Password_Reused'])(
    'change password: a refused new password (%s) shows its CMS text next to the field and in the summary, not its code',
    async (code) => {
      const message = `The CMS text of ${code}.`;
      server.use(...accountHandlers(), errorMessagesRoute({ [code]: message }));
      answerPostsInTurn(ACCOUNT_ROUTES.password, [
        () => HttpResponse.json({ errorMessage: code, fieldErrors: { newPassword: [code] } }, { status: 400 }),
      ]);
      const { user } = renderAccount();
      const form = await openForm(user, 'Password');
      const newPassword = within(form).getByLabelText(/^new password/i, { selector: 'input' });
      await user.type(within(form).getByLabelText(/^current password/i, { selector: 'input' }), DEMO_PASSWORD_TYPED);
      await user.type(newPassword, 'an older password I used before');
      await user.click(within(form).getByRole('button', { name: 'Change password' }));
      await waitFor(() => expect(document.getElementById('new-password-helper-text')).toHaveTextContent(message));
      expect(newPassword.getAttribute('aria-describedby')).toContain('new-password-helper-text');
      const summary = await within(form).findByTestId('form-error-summary');
      // Once, as the link to the field: not a second time as the answer's own message.
      expect(within(summary).getAllByText(message)).toHaveLength(1);
      expect(within(summary).getByRole('link', { name: message })).toBeInTheDocument();
      expect(within(form).queryByText(code)).not.toBeInTheDocument();
    },
  );

  it('MFA reset: new QR code and key, confirm with a code, then 10 new recovery codes', async () => {
    server.use(...accountHandlers());
    const calls = answerPostsInTurn(ACCOUNT_ROUTES.mfaReset, [
      ok({
        otpauthUrl: 'otpauth://totp/x',
        secret: 'WXYZ WXYZ WXYZ WXYZ',
        qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>',
      }),
      ok({ recoveryCodes: RECOVERY_CODES, otherSessionsEnded: 0 }),
    ]);
    const { user } = renderAccount();
    const mfa = await section('Authenticator app and recovery codes');
    expect(await within(mfa).findByText('Recovery codes left: 9')).toBeInTheDocument();
    await user.click(within(mfa).getByRole('button', { name: 'Set up a new authenticator app' }));
    expect(await within(mfa).findByRole('img', { name: /qr code/i })).toBeInTheDocument();
    // The button the user pressed is gone: focus follows to the setup.
    await waitFor(() => expect(within(mfa).getByTestId('mfa-stage')).toHaveFocus());
    expect(within(mfa).getByTestId('mfa-manual-key')).toHaveTextContent('WXYZ WXYZ WXYZ WXYZ');
    await user.type(within(mfa).getByLabelText(/6-digit code/i), '123456');
    await user.click(within(mfa).getByRole('button', { name: 'Confirm' }));
    const list = await within(mfa).findByTestId('recovery-codes');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(RECOVERY_CODES);
    expect(calls).toEqual([{}, { code: '123456' }]);
    await user.click(within(mfa).getByLabelText('I saved my recovery codes'));
    await user.click(within(mfa).getByRole('button', { name: 'Continue' }));
    expect(await within(screen.getByTestId('mfa-status')).findByText(/new authenticator app is set up/)).toBeVisible();
  });

  it('passkeys: the list with name, created and last used; rename; remove after a confirmation', async () => {
    server.use(...accountHandlers());
    const renames = answerPostsInTurn('/api/account/passkeys/pk-1/rename', [
      ok({
        passkey: {
          id: 'pk-1',
          name: 'Home desktop',
          createdAt: '2026-11-10T10:00:00.000Z',
          lastUsedAt: null,
          backedUp: false,
        },
      }),
    ]);
    const removals = answerPostsInTurn('/api/account/passkeys/pk-1/remove', [ok({ removed: true })]);
    const { user } = renderAccount();
    const passkeys = await section('Passkeys');
    const row = (await within(passkeys).findByText('Work laptop')).closest('tr')!;
    const table = within(passkeys).getByRole('table', { name: 'Your passkeys' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Created', 'Last used', 'Actions']);
    expect(row).toHaveTextContent('Nov 10, 2026');
    expect(row).toHaveTextContent('Never');

    await user.click(within(row).getByRole('button', { name: 'Rename Work laptop' }));
    const rename = await screen.findByRole('dialog', { name: 'Rename passkey' });
    const name = within(rename).getByLabelText(/passkey name/i);
    await user.clear(name);
    await user.type(name, 'Home desktop');
    await user.click(within(rename).getByRole('button', { name: 'Save' }));
    expect(
      await within(screen.getByTestId('passkeys-status')).findByText('Passkey renamed to "Home desktop".'),
    ).toBeVisible();
    expect(renames).toEqual([{ name: 'Home desktop' }]);

    await user.click(within(row).getByRole('button', { name: /^Remove/ }));
    const remove = await screen.findByRole('dialog', { name: 'Remove this passkey?' });
    await user.click(within(remove).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(removals).toHaveLength(1));
    await waitFor(() => expect(within(passkeys).getByRole('heading', { name: 'Passkeys' })).toHaveFocus());
    expect(await within(screen.getByTestId('passkeys-status')).findByText(/removed/)).toBeVisible();
  });

  it('passkeys: a browser without WebAuthn is told so instead of offered "Add a passkey"', async () => {
    server.use(...accountHandlers());
    renderAccount();
    const passkeys = await section('Passkeys');
    expect(await within(passkeys).findByText(/this browser cannot create passkeys/i)).toBeInTheDocument();
    expect(within(passkeys).queryByRole('button', { name: 'Add a passkey' })).not.toBeInTheDocument();
  });

  it('passkeys: a cancelled browser ceremony is said plainly and nothing is registered', async () => {
    (window as { PublicKeyCredential?: unknown }).PublicKeyCredential = function PublicKeyCredential() {};
    Object.defineProperty(navigator, 'credentials', {
      configurable: true,
      value: {
        create: () =>
          Promise.reject(new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError')),
      },
    });
    server.use(...accountHandlers());
    answerPostsInTurn(ACCOUNT_ROUTES.passkeyRegistrationOptions, [
      ok({
        challenge: 'Y2hhbGxlbmdl',
        rp: { name: 'Portal', id: 'localhost' },
        user: { id: 'dXNlcg', name: 'demo.admin.j5', displayName: 'Dana Whitfield' },
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      }),
    ]);
    const registrations = answerPostsInTurn(ACCOUNT_ROUTES.passkeyRegistration, [ok({})]);
    const { user } = renderAccount();
    const passkeys = await section('Passkeys');
    await user.type(await within(passkeys).findByLabelText(/passkey name/i), 'Phone');
    await user.click(within(passkeys).getByRole('button', { name: 'Add a passkey' }));
    expect(await within(passkeys).findByText(/cancelled or timed out/)).toBeInTheDocument();
    expect(registrations).toHaveLength(0);
  });
});

describe('the re-authentication retry', { timeout: 30_000 }, () => {
  it('retries the change once only: a second refusal is shown, not another dialog', async () => {
    server.use(...accountHandlers());
    const changes = answerPostsInTurn(ACCOUNT_ROUTES.password, [fail(401, 'Reauthentication_Required')]);
    answerPostsInTurn(ACCOUNT_ROUTES.reauthenticate, [ok({ recentAuthenticationSecondsLeft: 1200 })]);
    const { user } = renderAccount();
    const form = await fillPasswordChange(user);
    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    await user.type(within(dialog).getByLabelText(/^password/i), 'Harbor lantern quartz meadow');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(form).findByText(defaultErrorMessages.Reauthentication_Required!)).toBeInTheDocument();
    expect(changes).toHaveLength(2);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('several forms on one page', { timeout: 30_000 }, () => {
  it('each error summary is labelled by its own title', async () => {
    (window as { PublicKeyCredential?: unknown }).PublicKeyCredential = function PublicKeyCredential() {};
    server.use(...accountHandlers());
    const { user } = renderAccount();
    const password = await openForm(user, 'Password');
    await user.click(within(password).getByRole('button', { name: 'Change password' }));
    const passkeys = await section('Passkeys');
    await user.click(await within(passkeys).findByRole('button', { name: 'Add a passkey' }));
    const summaries = await screen.findAllByTestId('form-error-summary');
    expect(summaries).toHaveLength(2);
    expect(within(summaries[0]!).getByText('There is a problem').id).not.toBe(
      within(summaries[1]!).getByText('There is a problem').id,
    );
    expect(summaries[1]).toHaveAccessibleName('There is a problem');
    delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
  });
});

describe(
  'changing the email, phone and security questions (docs/requirements/session.md#my-account)',
  { timeout: 30_000 },
  () => {
    /** The re-authentication dialog: the password, then Confirm. */
    async function confirmItsYou(user: ReturnType<typeof renderApp>['user']) {
      const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
      await user.type(within(dialog).getByLabelText(/^password/i), 'Harbor lantern quartz meadow');
      await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    }

    it('change email: a bad address is refused in the form; a good one is sent after the password, and the link is explained', async () => {
      server.use(...accountHandlers());
      const changes = answerPostsInTurn(ACCOUNT_ROUTES.email, [
        fail(403, 'Reauthentication_Required'),
        ok({ requested: true }),
      ]);
      answerPostsInTurn(ACCOUNT_ROUTES.reauthenticate, [ok({ recentAuthenticationSecondsLeft: 1200 })]);
      const { user } = renderAccount();
      const form = await openForm(user, 'Email address');
      expect(await within(form).findByTestId('email-current')).toHaveTextContent(
        'Your email address is demo.admin.j5@example.com.',
      );
      const input = within(form).getByLabelText(/^new email address/i);
      await user.type(input, 'not an address');
      await user.click(within(form).getByRole('button', { name: 'Send the confirmation link' }));
      await waitFor(() => expect(input).toHaveAttribute('aria-invalid', 'true'));
      expect(await within(form).findAllByText(defaultErrorMessages.Email_Invalid!)).not.toHaveLength(0);
      expect(changes).toEqual([]);

      await user.clear(input);
      await user.type(input, '  dana.new@clinic.example ');
      await user.click(within(form).getByRole('button', { name: 'Send the confirmation link' }));
      await confirmItsYou(user);
      expect(
        await within(screen.getByTestId('email-status')).findByText(/We sent a link to dana.new@clinic.example/),
      ).toBeInTheDocument();
      expect(changes).toEqual([{ email: 'dana.new@clinic.example' }, { email: 'dana.new@clinic.example' }]);
      // The form closes; focus goes back to its "Change" action.
      expect(input).not.toBeInTheDocument();
      await waitFor(() => expect(within(form).getByRole('button', { name: 'Change email address' })).toHaveFocus());
      // The profile keeps the current address until the link is opened.
      expect(within(await section('Profile')).getByText('demo.admin.j5@example.com')).toBeInTheDocument();
    });

    it('change email: the current address is answered next to the field', async () => {
      server.use(...accountHandlers());
      server.use(
        http.post(ACCOUNT_ROUTES.email, () =>
          HttpResponse.json(
            { errorMessage: 'Email_Unchanged', fieldErrors: { email: ['Email_Unchanged'] } },
            { status: 400 },
          ),
        ),
      );
      const { user } = renderAccount();
      const form = await openForm(user, 'Email address');
      const input = within(form).getByLabelText(/^new email address/i);
      await user.type(input, 'demo.admin.j5@example.com');
      await user.click(within(form).getByRole('button', { name: 'Send the confirmation link' }));
      await waitFor(() => expect(input).toHaveAttribute('aria-invalid', 'true'));
      await waitFor(() =>
        expect(document.getElementById(input.getAttribute('aria-describedby')!)).toHaveTextContent(
          defaultErrorMessages.Email_Unchanged!,
        ),
      );
    });

    it('change phone: the registration rule in the form; the new number is sent as 10 digits and shown masked', async () => {
      let phoneMasked = '***-***-4567';
      server.use(...accountHandlers());
      server.use(http.get(ACCOUNT_ROUTES.account, () => HttpResponse.json({ data: { ...demoAccount, phoneMasked } })));
      const changes = answerPostsInTurn(ACCOUNT_ROUTES.phone, [
        () => {
          phoneMasked = '***-***-0123';
          return HttpResponse.json({ data: { phoneMasked } });
        },
      ]);
      const { user } = renderAccount();
      const form = await openForm(user, 'Phone number');
      const input = within(form).getByLabelText(/^new phone number/i);
      await user.type(input, '123-456-7890');
      await user.click(within(form).getByRole('button', { name: 'Change phone' }));
      await waitFor(() => expect(input).toHaveAttribute('aria-invalid', 'true'));
      expect(await screen.findByTestId('form-error-summary')).toHaveTextContent(defaultErrorMessages.Phone_Invalid!);
      expect(changes).toEqual([]);

      await user.clear(input);
      await user.type(input, '(410) 555-0123');
      await user.click(within(form).getByRole('button', { name: 'Change phone' }));
      const status = screen.getByTestId('phone-status');
      await waitFor(() => expect(status).toHaveTextContent('Your phone number was changed to ***-***-0123.'));
      expect(changes).toEqual([{ phone: '4105550123' }]);
      // The masked number never breaks at a hyphen onto two lines, in the message or the profile.
      expect(within(status).getByText('***-***-0123')).toHaveStyle({ whiteSpace: 'nowrap' });
      expect(await within(await section('Profile')).findByText('***-***-0123')).toHaveStyle({ whiteSpace: 'nowrap' });
    });

    it('security questions: three different CMS questions, each answered, replace the old ones', async () => {
      server.use(...accountHandlers());
      const changes = answerPostsInTurn(ACCOUNT_ROUTES.securityAnswers, [ok({ changed: true })]);
      const { user } = renderAccount();
      const form = await openForm(user, 'Security questions');
      const row = (index: number) => within(form).getByRole('group', { name: `Security question ${index + 1}` });
      expect(await within(row(0)).findByRole('option', { name: SECURITY_QUESTIONS[0]!.question })).toBeInTheDocument();
      await user.click(within(form).getByRole('button', { name: 'Change security questions' }));
      const summary = await within(form).findByTestId('form-error-summary');
      await waitFor(() =>
        expect(
          within(summary).getAllByRole('link', { name: defaultErrorMessages.Security_Question_Invalid }),
        ).toHaveLength(3),
      );
      expect(within(summary).getAllByRole('link')[0]).toHaveAttribute('href', '#account-question-0');
      expect(changes).toEqual([]);

      const answers = ['Elm Street', 'Blue Honda', 'Lincoln Elementary'];
      for (const index of [0, 1, 2]) {
        await user.selectOptions(
          within(row(index)).getByRole('combobox', { name: /question/i }),
          SECURITY_QUESTIONS[index]!.key,
        );
        await user.type(within(row(index)).getByLabelText(/^answer/i), answers[index]!);
      }
      // A question chosen in one row cannot be chosen in another.
      expect(within(row(0)).getByRole('option', { name: SECURITY_QUESTIONS[1]!.question })).toBeDisabled();
      await user.click(within(form).getByRole('button', { name: 'Change security questions' }));
      expect(
        await within(screen.getByTestId('security-questions-status')).findByText(
          'Your security questions and answers were changed. The new questions are listed below.',
        ),
      ).toBeInTheDocument();
      expect(changes).toEqual([
        {
          securityQuestions: [0, 1, 2].map((index) => ({
            questionId: SECURITY_QUESTIONS[index]!.key,
            answer: answers[index],
          })),
        },
      ]);
      // The form closes; the section lists the questions on file (never an answer).
      expect(within(form).queryByRole('group', { name: 'Security question 1' })).not.toBeInTheDocument();
      const current = within(form).getByTestId('security-questions-current');
      expect(
        within(current)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ).toEqual(demoAccount.securityQuestionIds.map((key) => SECURITY_QUESTIONS.find((q) => q.key === key)!.question));
      expect(form).not.toHaveTextContent('Elm Street');
    });
  },
);

describe('/confirm-email, the link sent to a new email address', () => {
  const TOKEN = 'email-change-token-abcdefghijklmnop';
  const openLink = (hash: string) => window.history.replaceState(null, '', `/confirm-email${hash}`);

  it('posts the token from the fragment once, without a login, removes it from the address bar and says it worked', async () => {
    const tokens = answerPostsInTurn(ACCOUNT_ROUTES.emailConfirm, [ok({ changed: true })]);
    openLink(`#token=${TOKEN}`);
    renderApp({ path: '/confirm-email', cookies });
    const success = await screen.findByTestId('confirm-email-success');
    expect(success).toHaveTextContent('Your email address was changed');
    expect(within(success).getByRole('link', { name: 'My account' })).toHaveAttribute('href', '/account');
    expect(tokens).toEqual([{ token: TOKEN }]);
    expect(window.location.hash).toBe('');
  });

  it('a used, expired or replaced link shows the CMS text and the way back to My account', async () => {
    answerPostsInTurn(ACCOUNT_ROUTES.emailConfirm, [fail(400, 'Email_Change_Link_Invalid')]);
    openLink(`#token=${TOKEN}`);
    renderApp({ path: '/confirm-email', cookies });
    const error = await screen.findByTestId('confirm-email-error');
    await waitFor(() => expect(error).toHaveTextContent(defaultErrorMessages.Email_Change_Link_Invalid!));
    expect(within(error).getByRole('link', { name: 'Go to My account' })).toHaveAttribute('href', '/account');
  });

  it('without a token says to open the link from the email and sends nothing', async () => {
    const tokens = answerPostsInTurn(ACCOUNT_ROUTES.emailConfirm, [ok({ changed: true })]);
    openLink('');
    renderApp({ path: '/confirm-email', cookies });
    expect(await screen.findByTestId('confirm-email-error')).toHaveTextContent(/Open the link from the email/);
    expect(tokens).toEqual([]);
  });
});
