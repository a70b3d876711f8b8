import { screen, waitFor } from '@testing-library/react';
import { LICENSE_COOKIE, REGION_COOKIE } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { RouteErrorFallback } from '../../components/errors/route-error-fallback';
import { allowConsoleError, unexpectedConsoleErrors } from '../../testing/console-guard';
import { renderApp, renderWithProviders } from '../../testing/render-app';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { render } from '@testing-library/react';

describe('routes', () => {
  it('answers an unknown address with "Page not found" and a way home', async () => {
    renderApp({ path: '/no/such/page', cookies: { [REGION_COOKIE]: 'J5A', [LICENSE_COOKIE]: 'true' } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    await waitFor(() => expect(document.title).toBe('Page not found | Medicare Provider Portal'));
  });

  it('the footer links lead to the contact, privacy and accessibility topics', async () => {
    renderApp({ path: '/' });
    const footer = await screen.findByRole('navigation', { name: 'Footer' });
    expect([...footer.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      '/topics/contact',
      '/topics/privacy',
      '/topics/accessibility',
    ]);
  });

  it('a page that fails to render shows "Something went wrong", never a blank screen', async () => {
    allowConsoleError(/the page broke/);
    function Broken(): never {
      throw new Error('the page broke');
    }
    const router = createMemoryRouter([{ path: '*', element: <Broken />, errorElement: <RouteErrorFallback /> }]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('An error has happened, please try again.');
  });
});

describe('console guard', () => {
  it('lets through only the console.error lines a test allowed', () => {
    expect(unexpectedConsoleErrors(['Warning: act(...)', 'Error: the page broke'], [/the page broke/])).toEqual([
      'Warning: act(...)',
    ]);
    expect(unexpectedConsoleErrors(['anything'], [])).toEqual(['anything']);
  });

  it('renderWithProviders gives an element the region state', async () => {
    const { JurisdictionHeaderControl } = await import('../../features/jurisdiction/jurisdiction-header-control');
    renderWithProviders(<JurisdictionHeaderControl />, { path: '/topics/x', cookies: { [REGION_COOKIE]: 'J8A' } });
    expect(screen.getByTestId('current-jurisdiction')).toHaveTextContent('Jurisdiction: J8 MAC Part A');
  });
});
