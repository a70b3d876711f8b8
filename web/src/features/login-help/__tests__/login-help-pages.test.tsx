import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { contentRoute, dataAnswer, errorAnswer, errorMessagesRoute } from '../../../testing/content-handlers';
import { recordRequests, server } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';

// Region and license accepted, so the dialog flow leaves the pages alone.
const cookies = { region: 'J5B', amaApproved: 'true' };
type User = ReturnType<typeof renderApp>['user'];

/** Answers `path` with `answer(body)` and records every body sent. */
function answerPost(path: string, answer: (body: Record<string, unknown>) => Response | Promise<Response>) {
  const bodies: Record<string, unknown>[] = [];
  server.use(
    http.post(path, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      bodies.push(body);
      return answer(body);
    }),
  );
  return bodies;
}

/** The CMS has `message` for `code`; answers the message. */
function errorMessage(code: string, message: string) {
  server.use(errorMessagesRoute({ [code]: message }));
  return message;
}

/** Types a date into the form pattern's date field (MM/DD/YYYY sections). */
async function typeDate(user: User, digits: string) {
  await user.click(screen.getByRole('spinbutton', { name: 'Month' }));
  await user.keyboard(digits);
}

const summary = () => screen.findByTestId('form-error-summary');

describe('/login-help/username (docs/requirements/portal.md#forgot-username)', () => {
  it('without a date of birth sends nothing and says why, next to the field and in the summary', async () => {
    const requests = recordRequests();
    const { user } = renderApp({ path: '/login-help/username', cookies });
    await user.type(await screen.findByRole('textbox', { name: /email address/i }), 'jane@example.com');
    await user.click(screen.getByRole('button', { name: 'Email my username' }));
    expect(await within(await summary()).findByRole('link', { name: 'Date of Birth is invalid' })).toHaveAttribute(
      'href',
      '#forgot-username-dob',
    );
    const dob = screen.getByRole('group', { name: /date of birth/i });
    expect(document.getElementById(dob.getAttribute('aria-describedby')!)).toHaveTextContent(
      'Date of Birth is invalid',
    );
    expect(requests.some((url) => url.pathname.startsWith('/api/login-help'))).toBe(false);
  });

  it(
    'a date of birth in the future and an address registration refuses: refused next to the fields, nothing sent',
    { timeout: 30_000 },
    async () => {
      const requests = recordRequests();
      const { user } = renderApp({ path: '/login-help/username', cookies });
      await user.type(await screen.findByRole('textbox', { name: /email address/i }), 'demo.user.j5@example');
      await typeDate(user, '01012035');
      await user.click(screen.getByRole('button', { name: 'Email my username' }));
      const future = 'Date of birth cannot be in the future. Enter the date you were born.';
      expect(await within(await summary()).findByRole('link', { name: future })).toHaveAttribute(
        'href',
        '#forgot-username-dob',
      );
      const dob = screen.getByRole('group', { name: /date of birth/i });
      expect(document.getElementById(dob.getAttribute('aria-describedby')!)).toHaveTextContent(future);
      expect(await screen.findByRole('textbox', { name: /email address/i })).toHaveAccessibleDescription(
        'Enter a valid email address, for example name@example.com.',
      );
      expect(requests.some((url) => url.pathname.startsWith('/api/login-help'))).toBe(false);
    },
  );

  it(
    'email + date of birth: the same confirmation whatever the server found, focused',
    { timeout: 30_000 },
    async () => {
      const bodies = answerPost('/api/login-help/forgot-username', () => dataAnswer({ received: true }));
      const { user } = renderApp({ path: '/login-help/username', cookies });
      await user.type(await screen.findByRole('textbox', { name: /email address/i }), ' jane@example.com ');
      await typeDate(user, '01151980');
      await user.click(screen.getByRole('button', { name: 'Email my username' }));
      const heading = await screen.findByRole('heading', { name: 'Check your email' });
      await waitFor(() => expect(heading).toHaveFocus());
      expect(screen.getByText(/If an account matches, we emailed its username/)).toBeInTheDocument();
      expect(bodies).toEqual([{ email: 'jane@example.com', dob: '1980-01-15' }]);
    },
  );

  it('a 429 says how many minutes to wait, from Retry-After', { timeout: 30_000 }, async () => {
    answerPost('/api/login-help/forgot-username', () =>
      HttpResponse.json({ errorMessage: 'Too_Many_Requests' }, { status: 429, headers: { 'Retry-After': '125' } }),
    );
    const { user } = renderApp({ path: '/login-help/username', cookies });
    await user.type(await screen.findByRole('textbox', { name: /email address/i }), 'jane@example.com');
    await typeDate(user, '01151980');
    await user.click(screen.getByRole('button', { name: 'Email my username' }));
    expect(await within(await summary()).findByText('Too many attempts. Try again in 3 minutes.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Check your email' })).not.toBeInTheDocument();
  });
});

describe('/login-help/password (docs/requirements/portal.md#forgot-password)', () => {
  async function submit(user: User, internal: boolean) {
    await user.type(await screen.findByRole('textbox', { name: 'Username' }), 'demo.user.j5');
    await user.type(screen.getByRole('textbox', { name: /email address/i }), 'demo.user.j5@example.com');
    if (internal) await user.click(screen.getByRole('checkbox', { name: /internal user/i }));
    await user.click(screen.getByRole('button', { name: 'Email me a reset link' }));
  }

  it('external: the same "check your email" confirmation whatever the result', async () => {
    const bodies = answerPost('/api/login-help/forgot-password', () => dataAnswer({ next: 'check-email' }));
    const { user } = renderApp({ path: '/login-help/password', cookies });
    await submit(user, false);
    const heading = await screen.findByRole('heading', { name: 'Check your email' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByText(/If an account matches, we emailed a link/)).toBeInTheDocument();
    expect(bodies).toEqual([{ username: 'demo.user.j5', email: 'demo.user.j5@example.com', isInternal: false }]);
  });

  it('internal: sends isInternal and shows the enterprise-directory instructions, no email promised', async () => {
    const bodies = answerPost('/api/login-help/forgot-password', (body) =>
      dataAnswer({ next: body.isInternal ? 'enterprise-directory' : 'check-email' }),
    );
    const { user } = renderApp({ path: '/login-help/password', cookies });
    await submit(user, true);
    expect(
      await screen.findByRole('heading', { name: 'Reset your password through the enterprise directory' }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/we emailed/i)).not.toBeInTheDocument();
    expect(bodies[0]).toMatchObject({ isInternal: true });
  });

  it('empty fields: the summary lists both and nothing is sent', async () => {
    const requests = recordRequests();
    const { user } = renderApp({ path: '/login-help/password', cookies });
    await user.click(await screen.findByRole('button', { name: 'Email me a reset link' }));
    // The email's message is the one email rule's (`Email_Invalid`, its CMS text).
    await waitFor(async () =>
      expect(
        within(await summary())
          .getAllByRole('link')
          .map((a) => a.textContent),
      ).toEqual(['Enter your username.', 'Enter a valid email address, for example name@example.com.']),
    );
    expect(requests.some((url) => url.pathname.startsWith('/api/login-help'))).toBe(false);
  });
});

const QUESTIONS = [
  { id: 1, attributes: { key: 'first-pet', question: 'What was the name of your first pet?', order: 1 } },
  { id: 2, attributes: { key: 'childhood-street', question: 'What street did you grow up on?', order: 2 } },
];
const useQuestions = () => server.use(http.get(contentRoute('security-questions'), () => dataAnswer(QUESTIONS)));
const NEW_PASSWORD = 'violet lantern orbit tea cup';

describe('/reset-password (docs/requirements/portal.md#forgot-password)', () => {
  function resetAnswers(opts: { finalAnswer?: () => Response } = {}) {
    return answerPost('/api/login-help/reset-password', (body) => {
      if (body.token !== 'good-token-1234567890') return errorAnswer(400, 'Reset_Token_Invalid');
      if (body.step === 'question') return dataAnswer({ questionId: 'childhood-street' });
      if (opts.finalAnswer) return opts.finalAnswer();
      return body.answer === 'Elm Street'
        ? dataAnswer({ passwordChanged: true })
        : errorAnswer(400, 'Security_Answer_Incorrect');
    });
  }

  it(
    'takes the token from the fragment and clears it, asks the question, then sets the password: link to log in',
    { timeout: 30_000 },
    async () => {
      useQuestions();
      const wrong = errorMessage('Security_Answer_Incorrect', 'That answer does not match.');
      const bodies = resetAnswers();
      const { user, router } = renderApp({ path: '/reset-password#token=good-token-1234567890', cookies });
      expect(await screen.findByText('What street did you grow up on?')).toBeInTheDocument();
      expect(router.state.location.hash).toBe('');
      expect(bodies).toEqual([{ step: 'question', token: 'good-token-1234567890' }]);

      await user.type(screen.getByRole('textbox', { name: /your answer/i }), 'Oak Road');
      await user.type(screen.getByLabelText(/^new password/i), NEW_PASSWORD);
      await user.click(screen.getByRole('button', { name: 'Set new password' }));
      expect(await within(await summary()).findByText(wrong)).toBeInTheDocument();
      expect(screen.getByRole('textbox', { name: /your answer/i })).toHaveValue('');

      await user.type(screen.getByRole('textbox', { name: /your answer/i }), 'Elm Street');
      await user.click(screen.getByRole('button', { name: 'Set new password' }));
      const heading = await screen.findByRole('heading', { name: 'Your password has been changed' });
      await waitFor(() => expect(heading).toHaveFocus());
      expect(screen.getByText(/still need your authenticator app/)).toBeInTheDocument();
      expect(within(screen.getByTestId('form-outcome')).getByRole('link', { name: 'Log in' })).toHaveAttribute(
        'href',
        '/login',
      );
      expect(bodies.at(-1)).toEqual({
        step: 'set-password',
        token: 'good-token-1234567890',
        answer: 'Elm Street',
        newPassword: NEW_PASSWORD,
      });

      // Another emailed link opened in this same tab (only the fragment changes): it is read afresh.
      await act(() => router.navigate('/reset-password#token=used-token-1234567890'));
      expect(await screen.findByRole('heading', { name: 'This reset link no longer works' })).toBeInTheDocument();
      expect(router.state.location.hash).toBe('');
    },
  );

  it(
    "a refused new password is listed once in the error box, as the field's error (issue 22, item 10)",
    { timeout: 30_000 },
    async () => {
      useQuestions();
      const reused = errorMessage('Password_Reused', 'You used this password recently.');
      resetAnswers({
        finalAnswer: () =>
          HttpResponse.json(
            { errorMessage: 'Password_Reused', fieldErrors: { newPassword: ['Password_Reused'] } },
            { status: 400 },
          ),
      });
      const { user } = renderApp({ path: '/reset-password#token=good-token-1234567890', cookies });
      await user.type(await screen.findByRole('textbox', { name: /your answer/i }), 'Elm Street');
      await user.type(screen.getByLabelText(/^new password/i), NEW_PASSWORD);
      await user.click(screen.getByRole('button', { name: 'Set new password' }));
      const box = await summary();
      await waitFor(() => expect(within(box).getAllByText(reused)).toHaveLength(1));
      expect(within(box).getByRole('link', { name: reused })).toHaveAttribute('href', '#reset-new-password');
    },
  );

  it('an expired or used link says so, with a link to request a new one', async () => {
    useQuestions();
    const text = errorMessage('Reset_Token_Invalid', 'This link does not work any more.');
    resetAnswers();
    renderApp({ path: '/reset-password#token=used-token-1234567890', cookies });
    expect(await screen.findByRole('heading', { name: 'This reset link no longer works' })).toBeInTheDocument();
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Request a new password reset email' })).toHaveAttribute(
      'href',
      '/login-help/password',
    );
  });

  it(
    'a link that expires between the question and the new password ends the same way',
    { timeout: 30_000 },
    async () => {
      useQuestions();
      resetAnswers({ finalAnswer: () => errorAnswer(400, 'Reset_Token_Invalid') });
      const { user } = renderApp({ path: '/reset-password#token=good-token-1234567890', cookies });
      await user.type(await screen.findByRole('textbox', { name: /your answer/i }), 'Elm Street');
      await user.type(screen.getByLabelText(/^new password/i), NEW_PASSWORD);
      await user.click(screen.getByRole('button', { name: 'Set new password' }));
      expect(await screen.findByRole('heading', { name: 'This reset link no longer works' })).toBeInTheDocument();
    },
  );

  it('without a token: no request, and a way to ask for a new link', async () => {
    const requests = recordRequests();
    renderApp({ path: '/reset-password', cookies });
    expect(await screen.findByRole('heading', { name: 'This reset link is not complete' })).toBeInTheDocument();
    expect(requests.some((url) => url.pathname.startsWith('/api/login-help'))).toBe(false);
  });
});

describe('/reactivate (docs/requirements/portal.md#self-reactivation)', () => {
  async function start(user: User) {
    await user.type(await screen.findByRole('textbox', { name: 'Username' }), 'demo.inactive');
    await typeDate(user, '03041975');
    await user.click(screen.getByRole('button', { name: 'Email me a code' }));
  }

  it(
    'username + dob → code → security answer → new password → active again (authenticator still needed)',
    { timeout: 40_000 },
    async () => {
      useQuestions();
      const bodies = answerPost('/api/users/self-reactivation', (body) => {
        const next = { 'request-code': 'enter-code', 'verify-code': 'answer', 'verify-answer': 'new-password' }[
          body.step as string
        ];
        if (body.step === 'verify-code') return dataAnswer({ next, questionId: 'first-pet' });
        return dataAnswer({ next: next ?? 'done' });
      });
      const { user } = renderApp({ path: '/reactivate', cookies });
      await start(user);
      const codeHeading = await screen.findByRole('heading', { name: /Step 2 of 4.*Enter the code we emailed you/ });
      await waitFor(() => expect(codeHeading).toHaveFocus());
      await user.type(screen.getByRole('textbox', { name: /code from the email/i }), '123456');
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      expect(await screen.findByText('What was the name of your first pet?')).toBeInTheDocument();
      await user.type(screen.getByRole('textbox', { name: /your answer/i }), 'Rex');
      await user.click(screen.getByRole('button', { name: 'Continue' }));
      await user.type(await screen.findByLabelText(/^new password/i), NEW_PASSWORD);
      await user.click(screen.getByRole('button', { name: 'Reactivate my account' }));
      const done = await screen.findByRole('heading', { name: 'Your account is active again' });
      await waitFor(() => expect(done).toHaveFocus());
      expect(screen.getByText(/still need your authenticator app/)).toBeInTheDocument();
      expect(bodies).toEqual([
        { step: 'request-code', username: 'demo.inactive', dob: '1975-03-04' },
        { step: 'verify-code', username: 'demo.inactive', code: '123456' },
        { step: 'verify-answer', username: 'demo.inactive', code: '123456', answer: 'Rex' },
        { step: 'set-password', username: 'demo.inactive', code: '123456', answer: 'Rex', newPassword: NEW_PASSWORD },
      ]);
    },
  );

  it.each([
    ['Reactivation_Locked_Contact_Help_Desk', 'Contact the help desk', false],
    ['Reactivation_Disabled_Contact_Administrator', 'Contact your administrator', true],
  ] as const)('%s: says whom to contact', { timeout: 30_000 }, async (code, title, findAdminLink) => {
    const text = errorMessage(code, `The text of ${code}.`);
    answerPost('/api/users/self-reactivation', (body) =>
      body.step === 'request-code' ? dataAnswer({ next: 'enter-code' }) : errorAnswer(403, code),
    );
    const { user } = renderApp({ path: '/reactivate', cookies });
    await start(user);
    await user.type(await screen.findByRole('textbox', { name: /code from the email/i }), '123456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(!!screen.queryByRole('link', { name: 'Find my administrator' })).toBe(findAdminLink);
  });

  it('a wrong code stays on the step with the CMS text and an empty code field', { timeout: 30_000 }, async () => {
    const text = errorMessage('Reactivation_Code_Invalid', 'That code is not correct.');
    answerPost('/api/users/self-reactivation', (body) =>
      body.step === 'request-code' ? dataAnswer({ next: 'enter-code' }) : errorAnswer(400, 'Reactivation_Code_Invalid'),
    );
    const { user } = renderApp({ path: '/reactivate', cookies });
    await start(user);
    await user.type(await screen.findByRole('textbox', { name: /code from the email/i }), '999999');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await within(await summary()).findByText(text)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /code from the email/i })).toHaveValue('');
  });
});

describe('/find-admin (docs/requirements/portal.md#find-my-administrator)', () => {
  async function search(user: User) {
    await user.type(await screen.findByRole('textbox', { name: /NPI/ }), '2673073450');
    await user.type(screen.getByRole('textbox', { name: /PTAN/ }), '420000');
    await user.type(screen.getByRole('textbox', { name: /TIN/ }), '34-5400447');
    await user.click(screen.getByRole('button', { name: 'Find administrator' }));
  }

  it("lists the administrators' names and masked emails", async () => {
    const bodies = answerPost('/api/locations/public-find-admin', () =>
      dataAnswer({
        locationName: 'Harbor Clinic, LLC',
        administrators: [
          { firstName: 'Jane', lastName: 'Doe', maskedEmail: 'j••••@example.com' },
          { firstName: 'Ravi', lastName: 'Shah', maskedEmail: 'r••••@example.com' },
        ],
      }),
    );
    const { user } = renderApp({ path: '/find-admin', cookies });
    await search(user);
    const heading = await screen.findByRole('heading', { name: "This location's administrators" });
    await waitFor(() => expect(heading).toHaveFocus());
    const items = within(screen.getByTestId('administrators')).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual(['Jane Doej••••@example.com', 'Ravi Shahr••••@example.com']);
    expect(bodies).toEqual([{ npi: '2673073450', ptan: '420000', tin: '345400447' }]);
  });

  it('no match: the CMS text of the one no-match code', async () => {
    const text = errorMessage(
      'Find_Admin_No_Match',
      'We could not find a provider location with that NPI, PTAN and TIN.',
    );
    answerPost('/api/locations/public-find-admin', () => errorAnswer(404, 'Find_Admin_No_Match'));
    const { user } = renderApp({ path: '/find-admin', cookies });
    await search(user);
    expect(await within(await summary()).findByText(text)).toBeInTheDocument();
  });

  it('an invalid NPI is caught before anything is sent', async () => {
    const requests = recordRequests();
    const { user } = renderApp({ path: '/find-admin', cookies });
    await user.type(await screen.findByRole('textbox', { name: /NPI/ }), '1234567890');
    await user.click(screen.getByRole('button', { name: 'Find administrator' }));
    expect(
      await within(await summary()).findByRole('link', {
        name: 'This NPI is not valid. Check the 10 digits and try again.',
      }),
    ).toBeInTheDocument();
    expect(requests.some((url) => url.pathname.startsWith('/api/locations'))).toBe(false);
  });
});

describe('reachable from the login page and the header', () => {
  it('the login page links to every login-help page', async () => {
    renderApp({ path: '/login', cookies });
    const nav = await screen.findByRole('navigation', { name: 'Login help' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Forgot username?', '/login-help/username'],
      ['Forgot password?', '/login-help/password'],
      ['Reactivate my account', '/reactivate'],
      ['Find my administrator', '/find-admin'],
    ]);
  });

  it("the header's Help menu opens the login-help pages", async () => {
    const { user, router } = renderApp({ path: '/', cookies });
    await user.click(await screen.findByRole('button', { name: 'Help' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['Forgot username', 'Forgot password', 'Reactivate my account', 'Find my administrator', 'Contact us']);
    await user.click(within(menu).getByRole('menuitem', { name: 'Find my administrator' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/find-admin'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Find my administrator' })).toBeInTheDocument();
  });
});
