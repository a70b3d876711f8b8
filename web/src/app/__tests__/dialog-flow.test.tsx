import { act, screen, waitFor, within } from '@testing-library/react';
import { LICENSE_COOKIE, REGION_COOKIE } from '@portal/contracts';
import { http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contentRoute, errorAnswer, LICENSE_TEXT } from '../../testing/content-handlers';
import { recordRequests, server } from '../../testing/msw-server';
import { renderApp } from '../../testing/render-app';
import { dialogsAllowedFor } from '../dialogs/global-dialogs';

const TOPIC = '/topics/appeals';
const chosen = { [REGION_COOKIE]: 'J5A' };
const done = { [REGION_COOKIE]: 'J5A', [LICENSE_COOKIE]: 'true' };

const picker = () => screen.findByRole('dialog', { name: 'Get the right info.' });
const license = () => screen.findByRole('dialog', { name: 'License agreement' });
/** Waits for the page itself, so that "no dialog" is checked once the page has settled. */
const topicShown = () => screen.findByRole('heading', { level: 1, name: 'Title of appeals' });
const homeShown = () => screen.findByRole('heading', { level: 1, name: 'Welcome, providers' });
/** The dialogs load on demand: "no dialog" is only meaningful once their code is there and React has rendered. */
async function expectNoDialog() {
  await act(async () => {
    await Promise.all([
      import('../../features/jurisdiction/jurisdiction-picker-dialog'),
      import('../../features/license/license-dialog'),
    ]);
  });
  expect(screen.queryByRole('dialog')).toBeNull();
}

afterEach(() => vi.restoreAllMocks());

describe('dialog flow', () => {
  it('opens the picker on a page other than / when no jurisdiction is chosen, and it cannot be dismissed', async () => {
    renderApp({ path: TOPIC });
    const dialog = await picker();
    expect(within(dialog).getByText(/Medicare policies can vary by state/)).toBeInTheDocument();
    expect(within(dialog).getAllByRole('button', { name: /MAC Part/ })).toHaveLength(4);
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
  });

  it('never shows a dialog on the home page, whatever the cookies', async () => {
    renderApp({ path: '/' });
    await homeShown();
    await expectNoDialog();
    // The tiles are inline instead.
    expect(screen.getByRole('heading', { name: 'Get the right info.' })).toBeInTheDocument();
  });

  it('shows no license dialog on the home page either when a jurisdiction is chosen but the license is not accepted', async () => {
    const requests = recordRequests();
    renderApp({ path: '/', cookies: chosen });
    await homeShown();
    await expectNoDialog();
    expect(requests.some((url) => url.pathname.endsWith('/license'))).toBe(false);
  });

  it('shows the license from the CMS when a jurisdiction is chosen and the license not accepted', async () => {
    renderApp({ path: TOPIC, cookies: chosen });
    const dialog = await license();
    expect(await within(dialog).findByText(LICENSE_TEXT)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Accept' })).toBeEnabled();
  });

  it('shows no dialog once a jurisdiction is chosen and the license accepted', async () => {
    renderApp({ path: TOPIC, cookies: done });
    await topicShown();
    await expectNoDialog();
  });

  it('choosing a tile sets the jurisdiction and closes the picker; the license follows', async () => {
    const { user } = renderApp({ path: TOPIC });
    await user.click(within(await picker()).getByRole('button', { name: /^J8 MAC Part A/ }));
    expect(screen.getByTestId('current-jurisdiction')).toHaveTextContent('Jurisdiction: J8 MAC Part A');
    await license();
    expect(screen.queryByRole('dialog', { name: 'Get the right info.' })).toBeNull();
  });

  it('the header button reopens the picker, which can now be closed without changing the choice', async () => {
    const { user } = renderApp({ path: TOPIC, cookies: done });
    await topicShown();
    await user.click(screen.getByRole('button', { name: 'Change jurisdiction (now J5 MAC Part A)' }));
    const dialog = await picker();
    expect(within(dialog).getByRole('button', { name: /^J5 MAC Part A/ })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('current-jurisdiction')).toHaveTextContent('J5 MAC Part A');
  });

  it('the picker, while open, wins over the license dialog', async () => {
    const { user } = renderApp({ path: TOPIC, cookies: chosen });
    await license();
    await user.click(screen.getByRole('button', { name: 'Change jurisdiction (now J5 MAC Part A)', hidden: true }));
    await picker();
    expect(screen.queryByRole('dialog', { name: 'License agreement' })).toBeNull();
  });

  it('shows no dialog at all to a user agent containing veracode', async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (compatible; VeraCode Security Scanner)');
    renderApp({ path: TOPIC });
    await topicShown();
    await expectNoDialog();
  });

  it('dialogsAllowedFor matches veracode in any case and nothing else', () => {
    expect(dialogsAllowedFor('Mozilla/5.0 VERACODE')).toBe(false);
    expect(dialogsAllowedFor('Mozilla/5.0 (X11; Linux x86_64) Chrome/130')).toBe(true);
  });

  it('Accept closes the license dialog and remembers the acceptance in the license cookie', async () => {
    const { user } = renderApp({ path: TOPIC, cookies: chosen });
    const dialog = await license();
    await within(dialog).findByText(LICENSE_TEXT);
    await user.click(within(dialog).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.cookie).toContain(`${LICENSE_COOKIE}=true`);
  });

  it('Do Not Accept goes to the home page, where no dialog shows, and clears the license cookie', async () => {
    const { user, router } = renderApp({ path: TOPIC, cookies: { ...chosen, [LICENSE_COOKIE]: 'false' } });
    await user.click(within(await license()).getByRole('button', { name: 'Do Not Accept' }));
    await homeShown();
    expect(router.state.location.pathname).toBe('/');
    await expectNoDialog();
    expect(document.cookie).not.toContain(LICENSE_COOKIE);
  });

  it('says "Unable to retrieve About Us information." when the license cannot be fetched, after three more tries', async () => {
    const requests = recordRequests();
    server.use(http.get(contentRoute('license'), () => errorAnswer(502, 'Content_Unavailable')));
    renderApp({ path: TOPIC, cookies: chosen });
    const dialog = await license();
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Unable to retrieve About Us information.');
    expect(within(dialog).getByRole('button', { name: 'Accept' })).toBeDisabled();
    expect(requests.filter((url) => url.pathname.endsWith('/license'))).toHaveLength(4);
  });
});
