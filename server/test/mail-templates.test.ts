import { describe, expect, it } from 'vitest';
import { durationText } from '../src/platform/mail/layout';
import { renderEmail } from '../src/emails';

/** Issue 22 item 10: emails give a duration ("within 30 minutes"), never a clock time in the server's GMT. */
describe('email wording of time limits', () => {
  const expiresAt = '2026-11-23T09:30:00.000Z';

  it('durations read as minutes or hours', () => {
    expect(durationText(30 * 60_000)).toBe('30 minutes');
    expect(durationText(60_000)).toBe('1 minute');
    expect(durationText(60 * 60_000)).toBe('1 hour');
    expect(durationText(72 * 3600_000)).toBe('72 hours');
    expect(durationText(90 * 60_000)).toBe('90 minutes');
  });

  it('the reset link, the reactivation code and the lock notice say how long, not until when', () => {
    const emails = [
      renderEmail('http://localhost:3000', 'password-reset-link', {
        firstName: 'Dana',
        token: 'x'.repeat(43),
        expiresAt,
      }),
      renderEmail('http://localhost:3000', 'reactivation-code', {
        firstName: 'Dana',
        code: '123456',
        expiresAt,
        status: 'disabled_inactive',
      }),
      renderEmail('http://localhost:3000', 'account-locked', {
        firstName: 'Dana',
        unlockAt: expiresAt,
        lockMinutes: 60,
      }),
    ];
    expect(emails[0]!.text).toContain('works once, within 30 minutes of this email');
    expect(emails[1]!.text).toContain('Enter it within 15 minutes of this email');
    // The link opens the reactivation's code step, not its first step (the username and date of birth were given).
    expect(emails[1]!.text).toContain('http://localhost:3000/reactivate?step=code');
    expect(emails[2]!.text).toContain('You can try again in 1 hour.');
    for (const email of emails) {
      expect(email.text).not.toMatch(/GMT|UTC/);
      expect(email.text).not.toContain('2026');
    }
  });
});
