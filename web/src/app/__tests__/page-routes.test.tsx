import { act, render, screen } from '@testing-library/react';
import { Link, MemoryRouter, Outlet, useNavigate, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allowConsoleError } from '../../testing/console-guard';
import { PageRoutes } from '../page-routes';

function Broken(): never {
  throw new Error('the page broke');
}

function Layout() {
  const navigate = useNavigate();
  return (
    <>
      <Link to="/other">Other</Link>
      <button type="button" onClick={() => void navigate(-1)}>
        Back
      </button>
      <Outlet />
    </>
  );
}

function table(): RouteObject[] {
  return [
    {
      element: <Layout />,
      children: [
        { path: '/', element: <h1>Home</h1> },
        { path: '/broken', element: <Broken /> },
        { path: '/other', lazy: async () => ({ Component: () => <h1>Other page</h1> }) },
      ],
    },
  ];
}

describe('the routes in declarative mode (PageRoutes)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a page that fails to render shows "Something went wrong", never a blank screen', async () => {
    allowConsoleError(/the page broke/);
    render(
      <MemoryRouter initialEntries={['/broken']}>
        <PageRoutes routes={table()} />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('An error has happened, please try again.');
  });

  it('loads a lazy route when it is first reached, and a new page starts at the top; back returns to the place', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    render(
      <MemoryRouter initialEntries={['/']}>
        <PageRoutes routes={table()} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Home' })).toBeInTheDocument();
    // The first page is left where the browser puts it.
    expect(scrollTo).not.toHaveBeenCalled();

    Object.defineProperty(window, 'scrollY', { value: 420, configurable: true });
    window.dispatchEvent(new Event('scroll'));
    await act(async () => screen.getByRole('link', { name: 'Other' }).click());
    expect(await screen.findByRole('heading', { name: 'Other page' })).toBeInTheDocument();
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);

    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
    await act(async () => screen.getByRole('button', { name: 'Back' }).click());
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(scrollTo).toHaveBeenLastCalledWith(0, 420);
  });
});
