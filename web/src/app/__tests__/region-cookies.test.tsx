import { screen, within } from '@testing-library/react';
import { LICENSE_COOKIE, REGION_COOKIE } from '@portal/contracts';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { renderApp } from '../../testing/render-app';

const DAY_MS = 24 * 60 * 60 * 1000;
let cookieWrites: MockInstance<(value: string) => void>;

beforeEach(() => {
  // Spy on the document.cookie setter (calling through), to read the attributes the browser would keep.
  cookieWrites = vi.spyOn(Document.prototype, 'cookie', 'set');
});
afterEach(() => vi.restoreAllMocks());

/** The attributes of the last write of cookie `name`: `expires` as a date, or undefined for a session cookie. */
function lastWrite(name: string) {
  const write = cookieWrites.mock.calls.map(([value]) => value).findLast((value) => value.startsWith(`${name}=`));
  if (!write) throw new Error(`${name} was never written`);
  const expires = /;\s*expires=([^;]+)/i.exec(write)?.[1];
  return { value: write.split(';')[0]!.split('=')[1], expires: expires ? new Date(expires) : undefined };
}

const daysFromNow = (date: Date | undefined) => (date ? Math.round((date.getTime() - Date.now()) / DAY_MS) : undefined);

async function choose(tile: RegExp, remember: boolean) {
  const { user } = renderApp({ path: '/topics/appeals' });
  const picker = await screen.findByRole('dialog', { name: 'Get the right info.' });
  if (remember) await user.click(within(picker).getByRole('checkbox', { name: 'Remember my selection' }));
  await user.click(within(picker).getByRole('button', { name: tile }));
  return { user };
}

async function accept(user: Awaited<ReturnType<typeof choose>>['user']) {
  const dialog = await screen.findByRole('dialog', { name: 'License agreement' });
  await within(dialog).findByText(/CPT is a registered trademark/);
  await user.click(within(dialog).getByRole('button', { name: 'Accept' }));
}

describe('remember rule of the region and license cookies', () => {
  it('keeps a remembered jurisdiction for 365 days', async () => {
    await choose(/^J5 MAC Part B/, true);
    const region = lastWrite(REGION_COOKIE);
    expect(region.value).toBe('J5B');
    expect(daysFromNow(region.expires)).toBe(365);
  });

  it('keeps a jurisdiction that is not remembered for the browser session only', async () => {
    await choose(/^J8 MAC Part B/, false);
    expect(lastWrite(REGION_COOKIE)).toEqual({ value: 'J8B', expires: undefined });
  });

  it('the license acceptance follows the remembered choice: 365 days', async () => {
    const { user } = await choose(/^J5 MAC Part A/, true);
    await accept(user);
    const license = lastWrite(LICENSE_COOKIE);
    expect(license.value).toBe('true');
    expect(daysFromNow(license.expires)).toBe(365);
  });

  it('the license acceptance follows a choice not remembered: a session cookie', async () => {
    const { user } = await choose(/^J5 MAC Part A/, false);
    await accept(user);
    expect(lastWrite(LICENSE_COOKIE)).toEqual({ value: 'true', expires: undefined });
  });
});

describe('region read from the cookie at start', () => {
  it('uses a known jurisdiction from the cookie', async () => {
    renderApp({ path: '/', cookies: { [REGION_COOKIE]: 'J8B' } });
    expect(await screen.findByRole('heading', { name: 'Topics for J8 MAC Part B' })).toBeInTheDocument();
    expect(screen.getByTestId('current-jurisdiction')).toHaveTextContent('Jurisdiction: J8 MAC Part B');
  });

  it.each(['J9Z', 'j5a', '<script>', ''])(
    'ignores the unknown value %j: no jurisdiction, so the picker opens',
    async (stored) => {
      renderApp({ path: '/topics/appeals', cookies: { [REGION_COOKIE]: stored } });
      expect(await screen.findByRole('dialog', { name: 'Get the right info.' })).toBeInTheDocument();
      expect(screen.getByTestId('current-jurisdiction')).toHaveTextContent('No jurisdiction chosen');
    },
  );

  it('treats a license cookie other than "true" as not accepted', async () => {
    renderApp({ path: '/topics/appeals', cookies: { [REGION_COOKIE]: 'J5A', [LICENSE_COOKIE]: 'yes' } });
    expect(await screen.findByRole('dialog', { name: 'License agreement' })).toBeInTheDocument();
  });
});
