import { screen, waitFor } from '@testing-library/react';
import { LICENSE_COOKIE, REGION_COOKIE } from '@portal/contracts';
import { describe, expect, it } from 'vitest';
import { unexpectedConsoleErrors } from '../../testing/console-guard';
import { renderApp, renderWithProviders } from '../../testing/render-app';

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
