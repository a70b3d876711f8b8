import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { DATE_OF_SERVICE_FUTURE_MESSAGE, REGISTRATION_ROUTES } from '@portal/contracts/registration';
import { defaultErrorMessages, SECURITY_QUESTIONS } from '../../../testing/content-handlers';
import { recordRequests, server } from '../../../testing/msw-server';
import { renderApp } from '../../../testing/render-app';
import { field, fill, fillAccount, PASSWORD, type User } from './account-form';
import { AUTHORITY_NOT_CONFIRMED } from '../components/authority-step';

// Region J5 Part B chosen and the license accepted, so the dialog flow leaves the page alone.
const cookies = { region: 'J5B', amaApproved: 'true' };
const NPI = '1234567893';
const VALIDATION_TOKEN = 'validation-token-0123456789';
const REGISTRATION_TOKEN = 'registration-token-0123456789';
const SENTENCE = 'We could not match that claim number to a claim paid to this location in the last 90 days.';

interface Answers {
  provider?: () => Response;
  authority?: () => Response;
  registration?: () => Response;
}

function registrationAnswers(answers: Answers = {}) {
  const bodies = { provider: [] as unknown[], authority: [] as unknown[], registration: [] as unknown[] };
  server.use(
    http.post(REGISTRATION_ROUTES.validateProvider, async ({ request }) => {
      bodies.provider.push(await request.json());
      return (
        answers.provider?.() ??
        HttpResponse.json({
          data: {
            success: true,
            validationToken: VALIDATION_TOKEN,
            expiresAt: '2026-11-23T17:00:00.000Z',
            location: {
              legalName: 'Prairie Family Clinic',
              jurisdiction: 'J5',
              lineOfBusiness: 'B',
              maskedTin: '*****6789',
            },
          },
        })
      );
    }),
    http.post(REGISTRATION_ROUTES.validateAuthority, async ({ request }) => {
      bodies.authority.push(await request.json());
      return (
        answers.authority?.() ?? HttpResponse.json({ data: { success: true, registrationToken: REGISTRATION_TOKEN } })
      );
    }),
    http.post(REGISTRATION_ROUTES.selfRegistration, async ({ request }) => {
      bodies.registration.push(await request.json());
      return answers.registration?.() ?? HttpResponse.json({ data: { registered: true } });
    }),
  );
  return bodies;
}

async function completeProviderStep(user: User) {
  await fill(user, /NPI/, NPI);
  await fill(user, /PTAN/, 'AB1234');
  await fill(user, /TIN/, '12-3456789');
  await user.click(screen.getByRole('button', { name: 'Find my provider location' }));
  await user.click(await screen.findByRole('button', { name: 'This is my location, continue' }));
  await screen.findByRole('heading', { name: /Step 2 of 4/ });
}

async function completeAuthorityStep(user: User) {
  await user.click(screen.getByRole('radio', { name: 'A claim number' }));
  await fill(user, /claim number/i, '1234567890123');
  await user.click(screen.getByRole('button', { name: 'Verify and continue' }));
  await screen.findByRole('heading', { name: /Step 3 of 4/ });
}

// Typing into the date pickers and the long step 3 form is slow in jsdom on a shared machine.
describe('/register (docs/requirements/portal.md#administrator-self-registration)', { timeout: 60_000 }, () => {
  it('step 1: pre-filled from the region; an empty submit focuses the summary, links each field and sends nothing', async () => {
    const requests = recordRequests();
    const { user } = renderApp({ path: '/register', cookies });
    expect(await screen.findByRole('heading', { name: /Step 1 of 4/ })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: /jurisdiction and line of business/i })).toHaveValue('J5B');
    await user.click(screen.getByRole('button', { name: 'Find my provider location' }));
    const summary = await screen.findByTestId('form-error-summary');
    await waitFor(() => expect(summary).toHaveFocus());
    expect(
      within(summary)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['#register-npi', '#register-ptan', '#register-tin']);
    const npi = screen.getByLabelText(/NPI/);
    expect(npi).toHaveAttribute('aria-invalid', 'true');
    expect(document.getElementById(npi.getAttribute('aria-describedby')!)).toHaveTextContent(
      'Enter the 10-digit National Provider Identifier (NPI).',
    );
    expect(requests.some((url) => url.pathname === REGISTRATION_ROUTES.validateProvider)).toBe(false);
  });

  it('step 1: no match shows the CMS text of the code; an existing administrator links to find my administrator', async () => {
    let code = 'Provider_Not_Found';
    registrationAnswers({ provider: () => HttpResponse.json({ errorMessage: code }, { status: 404 }) });
    const { user } = renderApp({ path: '/register', cookies });
    await screen.findByRole('heading', { name: /Step 1 of 4/ });
    await fill(user, /NPI/, NPI);
    await fill(user, /PTAN/, 'AB1234');
    await fill(user, /TIN/, '123456789');
    await user.click(screen.getByRole('button', { name: 'Find my provider location' }));
    const summary = await screen.findByTestId('form-error-summary');
    expect(await within(summary).findByText(defaultErrorMessages.Provider_Not_Found!)).toBeInTheDocument();

    code = 'Location_Has_Administrator';
    await user.click(screen.getByRole('button', { name: 'Find my provider location' }));
    expect(await screen.findByText(defaultErrorMessages.Location_Has_Administrator!)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Find my administrator' })).toHaveAttribute('href', '/find-admin');
  });

  it('step 1 → 2: shows the matched location to confirm, sends the parts of the region, then focuses step 2', async () => {
    const bodies = registrationAnswers();
    const { user } = renderApp({ path: '/register', cookies });
    await screen.findByRole('heading', { name: /Step 1 of 4/ });
    await fill(user, /NPI/, NPI);
    await fill(user, /PTAN/, 'ab1234');
    await fill(user, /TIN/, '12-3456789');
    await user.click(screen.getByRole('button', { name: 'Find my provider location' }));
    const location = await screen.findByRole('region', { name: 'Matched provider location' });
    expect(location).toHaveTextContent('Prairie Family Clinic');
    expect(location).toHaveTextContent('*****6789');
    expect(location).toHaveTextContent('Part B');
    expect(bodies.provider).toEqual([
      {
        npi: NPI,
        ptan: 'AB1234',
        tin: '123456789',
        jurisdiction: 'J5',
        lineOfBusiness: 'B',
        passthroughResponse: true,
      },
    ]);
    await user.click(screen.getByRole('button', { name: 'This is my location, continue' }));
    const heading = await screen.findByRole('heading', { name: /Step 2 of 4/ });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByLabelText(/NPI/)).toHaveValue(NPI);
  });

  it('step 2: needs a choice, sends only the chosen facts with the token, and passes only on success: true', async () => {
    let answer: () => Response = () => HttpResponse.json({ data: { success: false } });
    const bodies = registrationAnswers({ authority: () => answer() });
    const { user } = renderApp({ path: '/register', cookies });
    await screen.findByRole('heading', { name: /Step 1 of 4/ });
    await completeProviderStep(user);

    await user.click(screen.getByRole('button', { name: 'Verify and continue' }));
    const summary = await screen.findByTestId('form-error-summary');
    expect(within(summary).getByRole('link', { name: /choose how you will prove/i })).toHaveAttribute(
      'href',
      '#register-proof',
    );

    await user.click(screen.getByRole('radio', { name: /check or EFT/ }));
    await fill(user, /check or EFT number/i, '0012-3456');
    await user.click(screen.getByRole('button', { name: 'Verify and continue' }));
    expect(await screen.findByText(AUTHORITY_NOT_CONFIRMED)).toBeInTheDocument();
    expect(bodies.authority).toEqual([
      {
        npi: NPI,
        validationToken: VALIDATION_TOKEN,
        financialLookupSelector: 'check',
        checkNumber: '00123456',
        passthroughResponse: true,
      },
    ]);

    // An HTTP error: the server's sentence is shown as it is.
    answer = () => HttpResponse.json({ errorMessage: SENTENCE }, { status: 400 });
    await user.click(screen.getByRole('radio', { name: 'A claim number' }));
    await fill(user, /claim number/i, '1234567890123');
    await user.click(screen.getByRole('button', { name: 'Verify and continue' }));
    expect(await screen.findByText(SENTENCE)).toBeInTheDocument();
    expect(screen.queryByText(AUTHORITY_NOT_CONFIRMED)).not.toBeInTheDocument();

    answer = () => HttpResponse.json({ data: { success: true, registrationToken: REGISTRATION_TOKEN } });
    await user.click(screen.getByRole('button', { name: 'Verify and continue' }));
    expect(await screen.findByRole('heading', { name: /Step 3 of 4/ })).toBeInTheDocument();
  });

  it('step 2: the patient proof asks for an MBI and a date of service and checks both', async () => {
    const bodies = registrationAnswers();
    const { user } = renderApp({ path: '/register', cookies });
    await screen.findByRole('heading', { name: /Step 1 of 4/ });
    await completeProviderStep(user);
    await user.click(screen.getByRole('radio', { name: /Medicare number/ }));
    await fill(user, /MBI/, '1EG4-TE5-MK7');
    await user.click(screen.getByRole('button', { name: 'Verify and continue' }));
    const summary = await screen.findByTestId('form-error-summary');
    expect(
      within(summary)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['#register-mbi', '#register-date-of-service']);
    await fill(user, /MBI/, '1EG4-TE5-MK73');
    await user.click(
      within(screen.getByRole('group', { name: /date of service/i })).getByRole('spinbutton', { name: 'Month' }),
    );
    await user.keyboard('11012026');
    await user.click(screen.getByRole('button', { name: 'Verify and continue' }));
    await screen.findByRole('heading', { name: /Step 3 of 4/ });
    expect(bodies.authority[0]).toMatchObject({
      financialLookupSelector: 'patient',
      patientMbi: '1EG4TE5MK73',
      dateOfService: '2026-11-01',
    });
  });

  // Its own test: retyping a date after the refusal made one test long enough to time out on a loaded machine.
  it('step 2: a date of service in the future is refused next to the field and nothing is sent', async () => {
    const bodies = registrationAnswers();
    const { user } = renderApp({ path: '/register', cookies });
    await screen.findByRole('heading', { name: /Step 1 of 4/ });
    await completeProviderStep(user);
    await user.click(screen.getByRole('radio', { name: /Medicare number/ }));
    await fill(user, /MBI/, '1EG4-TE5-MK73');
    // It would cost one of the location's authority attempts if it reached the server.
    const dateOfService = screen.getByRole('group', { name: /date of service/i });
    await user.click(within(dateOfService).getByRole('spinbutton', { name: 'Month' }));
    await user.keyboard('12312099');
    await user.click(screen.getByRole('button', { name: 'Verify and continue' }));
    await waitFor(() =>
      expect(document.getElementById(dateOfService.getAttribute('aria-describedby')!)).toHaveTextContent(
        DATE_OF_SERVICE_FUTURE_MESSAGE,
      ),
    );
    expect(bodies.authority).toEqual([]);
    expect(screen.getByRole('heading', { name: /Step 2 of 4/ })).toBeInTheDocument();
  });

  it('Back keeps what was entered in every step', async () => {
    registrationAnswers();
    const { user } = renderApp({ path: '/register', cookies });
    await screen.findByRole('heading', { name: /Step 1 of 4/ });
    await completeProviderStep(user);
    await completeAuthorityStep(user);
    await fill(user, 'First name *', 'Pat');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('heading', { name: /Step 2 of 4/ })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'A claim number' })).toBeChecked();
    expect(field(/claim number/i)).toHaveValue('1234567890123');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('region', { name: 'Matched provider location' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Change provider details' }));
    expect(screen.getByLabelText(/PTAN/)).toHaveValue('AB1234');
    expect(screen.getByLabelText(/TIN/)).toHaveValue('12-3456789');
    await user.click(screen.getByRole('button', { name: 'Find my provider location' }));
    await user.click(await screen.findByRole('button', { name: 'This is my location, continue' }));
    await user.click(await screen.findByRole('button', { name: 'Verify and continue' }));
    expect(await screen.findByRole('heading', { name: /Step 3 of 4/ })).toBeInTheDocument();
    expect(screen.getByLabelText('First name *')).toHaveValue('Pat');
  });

  it('step 3: an empty submit lists every field, the date of birth as "Date of Birth is invalid"', async () => {
    const bodies = registrationAnswers();
    const { user } = renderApp({ path: '/register', cookies });
    await screen.findByRole('heading', { name: /Step 1 of 4/ });
    await completeProviderStep(user);
    await completeAuthorityStep(user);
    await user.click(screen.getByRole('button', { name: 'Create my account' }));
    const summary = await screen.findByTestId('form-error-summary');
    await waitFor(() => expect(summary).toHaveFocus());
    const hrefs = within(summary)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    expect(hrefs).toEqual(
      expect.arrayContaining([
        '#register-first-name',
        '#register-dob',
        '#register-username',
        '#register-password',
        '#register-question-0',
        '#register-answer-2',
      ]),
    );
    // Each unchosen question says so; "three different questions" would only repeat it.
    expect(hrefs).not.toContain('#register-questions');
    expect(await within(summary).findByRole('link', { name: 'Date of Birth is invalid' })).toHaveAttribute(
      'href',
      '#register-dob',
    );
    expect(bodies.registration).toEqual([]);
  }, 30_000);

  it('step 3: a taken username sits next to the username; the registration then completes to Done', async () => {
    let taken = true;
    const bodies = registrationAnswers({
      registration: () =>
        taken
          ? HttpResponse.json({ errorMessage: 'Username_Taken' }, { status: 409 })
          : HttpResponse.json({ data: { registered: true } }),
    });
    const { user } = renderApp({ path: '/register', cookies });
    await screen.findByRole('heading', { name: /Step 1 of 4/ });
    await completeProviderStep(user);
    await completeAuthorityStep(user);
    // The questions come from the CMS.
    expect(
      await within(screen.getByRole('group', { name: 'Security question 1' })).findByRole('option', {
        name: SECURITY_QUESTIONS[0]!.question,
      }),
    ).toBeInTheDocument();
    await fillAccount(user);
    // A question chosen in one row cannot be chosen in another.
    expect(
      within(screen.getByRole('group', { name: 'Security question 1' })).getByRole('option', {
        name: SECURITY_QUESTIONS[1]!.question,
      }),
    ).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Create my account' }));

    const username = screen.getByLabelText(/^Username/);
    await waitFor(() => expect(username).toHaveAttribute('aria-invalid', 'true'));
    // The CMS text of the code, once the CMS answers.
    await waitFor(() =>
      expect(document.getElementById(username.getAttribute('aria-describedby')!)).toHaveTextContent(
        defaultErrorMessages.Username_Taken!,
      ),
    );
    expect(bodies.registration[0]).toEqual({
      registrationToken: REGISTRATION_TOKEN,
      firstName: 'Pat',
      lastName: 'Rivera',
      email: 'pat.rivera@clinic.example',
      emailConfirmation: 'pat.rivera@clinic.example',
      phone: '4105550123',
      dob: '1975-03-14',
      username: 'pat.rivera',
      password: PASSWORD,
      securityQuestions: SECURITY_QUESTIONS.slice(0, 3).map((q, index) => ({
        questionId: q.key,
        answer: `answer ${index + 1}`,
      })),
    });

    taken = false;
    await fill(user, /^Username/, 'pat.rivera2');
    await user.click(screen.getByRole('button', { name: 'Create my account' }));
    const heading = await screen.findByRole('heading', { name: /Step 4 of 4/ });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByTestId('registration-done')).toHaveTextContent('pat.rivera@clinic.example');
    expect(screen.getByTestId('registration-done')).toHaveTextContent(/authenticator/);
  }, 60_000);

  it('step 3: the two passwords must match', async () => {
    const bodies = registrationAnswers();
    const { user } = renderApp({ path: '/register', cookies });
    await screen.findByRole('heading', { name: /Step 1 of 4/ });
    await completeProviderStep(user);
    await completeAuthorityStep(user);
    await fillAccount(user);
    await fill(user, /^Password again/, `${PASSWORD}!`);
    await user.click(screen.getByRole('button', { name: 'Create my account' }));
    const summary = await screen.findByTestId('form-error-summary');
    expect(within(summary).getByRole('link', { name: /passwords do not match/ })).toHaveAttribute(
      'href',
      '#register-password-confirmation',
    );
    expect(bodies.registration).toEqual([]);
  }, 60_000);
});
