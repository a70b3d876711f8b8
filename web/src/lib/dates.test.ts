import { describe, expect, it } from 'vitest';
import { formatCalendarDay, formatDate, formatDateTime } from './dates';

// The sections' dates read as the browser's own en-US medium date (and short time) would, in its time zone, which
// the time names (issue 38: "Last login 12:45 AM" said no zone).
const intlDateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const intlZone = new Intl.DateTimeFormat('en-US', { timeZoneName: 'shortOffset' });
// Some ICU versions write a zero offset "GMT+0": "GMT" to a reader.
const zoneOf = (date: Date) =>
  intlZone
    .formatToParts(date)
    .find((p) => p.type === 'timeZoneName')!
    .value.replace(/^GMT\+0$/, 'GMT');
const intlDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
// Intl may put a narrow no-break space before AM/PM, depending on its ICU version: the same to a reader.
const plain = (text: string) => text.replace(/\u202f/g, ' ');

describe('the dates My account, the console and /portal show', () => {
  const instants = [
    '2026-11-23T15:04:00',
    '2026-01-01T00:00:00',
    '2026-05-09T12:30:00',
    '2026-12-31T23:59:59',
    '2027-07-04T09:05:00',
    '2026-03-08T11:59:00',
  ].map((local) => new Date(local).toISOString());

  it('are the same text as Intl en-US medium date and short time, with the offset named', () => {
    for (const iso of instants) {
      expect(formatDateTime(iso)).toBe(`${plain(intlDateTime.format(new Date(iso)))} ${zoneOf(new Date(iso))}`);
      expect(formatDate(iso)).toBe(plain(intlDate.format(new Date(iso))));
    }
  });

  it("show a feed's calendar day as Intl en-US medium date in UTC would, whatever the time zone", () => {
    const utcDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
    for (const day of ['2026-11-23', '2026-01-01', '2026-12-31', '2027-07-04', '2028-02-29'])
      expect(formatCalendarDay(day)).toBe(plain(utcDate.format(new Date(`${day}T00:00:00Z`))));
  });
});
