import dayjs from 'dayjs';

// dayjs rather than Intl.DateTimeFormat: building the first Intl formatter loads the locale's date patterns, one
// task of about 35 ms at a desktop's speed (140 ms at a phone's), which My account paid while its sections' code
// loaded, and /portal while its page's code did (docs/decisions/0060). Same text as `en-US` with `dateStyle: 'medium'`
// (and `timeStyle: 'short'`); a unit test compares the two.

/**
 * The browser's offset from UTC at `date`, as Intl's `shortOffset` writes it: "GMT", "GMT-6", "GMT+5:30" (dayjs has
 * no token for this form; its `Z` writes "-06:00").
 */
const offsetText = (date: dayjs.Dayjs) => {
  const offset = date.utcOffset();
  if (offset === 0) return 'GMT';
  const minutes = Math.abs(offset) % 60;
  return `GMT${offset < 0 ? '-' : '+'}${Math.floor(Math.abs(offset) / 60)}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
};

/**
 * "Nov 23, 2026, 3:04 PM GMT-6" in the browser's time zone, which it names: a time read by someone elsewhere (or
 * reported to the help desk) is not ambiguous.
 */
export const formatDateTime = (iso: string) => {
  const date = dayjs(iso);
  return `${date.format('MMM D, YYYY, h:mm A')} ${offsetText(date)}`;
};
/** "Nov 23, 2026". */
export const formatDate = (iso: string) => dayjs(iso).format('MMM D, YYYY');
/**
 * A calendar day written as `YYYY-MM-DD` (a feed's end date), as "Nov 23, 2026" whatever the browser's time zone:
 * dayjs reads a bare date as that day in the local zone, so no zone moves it to the day before.
 */
export const formatCalendarDay = (day: string) => dayjs(day).format('MMM D, YYYY');
