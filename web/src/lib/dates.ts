// Written out rather than with Intl.DateTimeFormat: building the first one loads the locale's date patterns, one
// task of about 35 ms at a desktop's speed (140 ms at a phone's), which My account paid while its sections' code
// loaded, and /portal while its page's code did (docs/decisions/0060). Same text as `en-US` with `dateStyle: 'medium'`
// (and `timeStyle: 'short'`); a unit test compares the two. Not dayjs either: it would add 3 KB to each first
// download that shows a date (bench:web-size), for three fixed patterns.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const dateText = (date: Date) => `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;

/** The browser's offset from UTC at `date`, as Intl's `shortOffset` writes it: "GMT", "GMT-6", "GMT+5:30". */
const offsetText = (date: Date) => {
  const offset = -date.getTimezoneOffset();
  if (offset === 0) return 'GMT';
  const hours = Math.floor(Math.abs(offset) / 60);
  const minutes = Math.abs(offset) % 60;
  return `GMT${offset < 0 ? '-' : '+'}${hours}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
};

/**
 * "Nov 23, 2026, 3:04 PM GMT-6" in the browser's time zone, which it names: a time read by someone elsewhere (or
 * reported to the help desk) is not ambiguous.
 */
export const formatDateTime = (iso: string) => {
  const date = new Date(iso);
  const hours = date.getHours();
  const minutes = String(date.getMinutes()).padStart(2, '0');
  return `${dateText(date)}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? 'AM' : 'PM'} ${offsetText(date)}`;
};
/** "Nov 23, 2026". */
export const formatDate = (iso: string) => dateText(new Date(iso));
/**
 * A calendar day written as `YYYY-MM-DD` (a feed's end date), as "Nov 23, 2026" whatever the browser's time zone:
 * no time zone moves it to the day before.
 */
export const formatCalendarDay = (day: string) => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return `${MONTHS[month - 1]} ${date}, ${year}`;
};
