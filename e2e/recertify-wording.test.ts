import { describe, expect, it } from 'vitest';
import { DEMO_TOTP_SECRETS } from '../server/src/modules/auth/demo-accounts';
import { expectNoAxeViolations, screenshot, waitForSettled } from './support/browser';
import { loginEnrolling, loginWithTotp } from './support/login';
import { portalSuite } from './support/portal-suite';

/**
 * `/admin/recertify` words its first lines by the real state (docs/requirements/staff-accounts.md#annual-recertification)
 * and says which page is held and why. On the demo data: demo.admin.j5 has demo.user.due due in 10 days (nothing
 * overdue; the "due soon" email links here), demo.admin.recert has demo.user.overdue past its date (held here).
 */
describe('the recertification screen says what is true', () => {
  const portal = portalSuite({ env: { LOGIN_ATTEMPTS_PER_MINUTE: '200' } });

  it('with nothing overdue it says so: no "before you continue", the portal is open', async () => {
    const { context, page } = await portal.newPage({ viewport: { width: 1440, height: 900 } });
    await loginWithTotp(page, 'demo.admin.j5', DEMO_TOTP_SECRETS['demo.admin.j5']!);
    await page.goto('/admin/recertify');
    const intro = page.getByTestId('recertify-intro');
    await intro.waitFor();
    const text = await intro.innerText();
    expect(text).toContain("Nobody's access to your provider locations is past its date");
    expect(text).toContain('The rest of the portal is open to you');
    expect(await page.getByText(/before you continue/).count()).toBe(0);
    expect(await page.getByTestId('recertify-held').count()).toBe(0);
    await expectNoAxeViolations(page, 'recertify, due soon');
    await screenshot(page, 'recertify-due-soon-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await waitForSettled(page);
    await screenshot(page, 'recertify-due-soon-390');
    await context.close();
  });

  it('held with overdue access, each held link says why', async () => {
    const { context, page } = await portal.newPage({ viewport: { width: 1440, height: 900 } });
    await loginEnrolling(page, 'demo.admin.recert');
    await page.waitForURL('**/admin/recertify');
    const held = page.getByTestId('recertify-held');
    await held.getByText(/^Portal home opens once the overdue recertifications below are decided/).waitFor();
    expect(await page.getByTestId('recertify-intro').innerText()).toContain(
      'past its recertification date and is suspended',
    );
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'My account' }).click();
    await held.getByText(/^My account opens once/).waitFor();
    expect(new URL(page.url()).pathname).toBe('/admin/recertify');
    await page.getByRole('navigation', { name: 'Portal' }).getByRole('link', { name: 'Staff accounts' }).click();
    await held.getByText(/^The staff accounts console opens once/).waitFor();
    await expectNoAxeViolations(page, 'recertify, held');
    await screenshot(page, 'recertify-held-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await waitForSettled(page);
    await screenshot(page, 'recertify-held-390');
    await context.close();
  });
});
