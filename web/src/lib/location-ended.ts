import { formatCalendarDay } from './dates';

/**
 * What the people of an end-dated location read beside it on /portal and My account
 * (docs/requirements/data-feeds.md#end-dated-locations), from the account's `endedOn` (YYYY-MM-DD).
 */
export function locationEndedText(endedOn: string): string {
  return `This location ended on ${formatCalendarDay(endedOn)}.`;
}
