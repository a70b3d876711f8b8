/** A feed's end date is a calendar day: formatted in UTC, so no time zone moves it to the day before. */
const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/**
 * What the people of an end-dated location read beside it on /portal and My account
 * (docs/requirements/data-feeds.md#end-dated-locations), from the account's `endedOn` (YYYY-MM-DD).
 */
export function locationEndedText(endedOn: string): string {
  return `This location ended on ${day.format(new Date(`${endedOn}T00:00:00Z`))}.`;
}
