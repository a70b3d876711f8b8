import type { ComponentType } from 'react';
import { InvitationsSection } from './invitations/invitations-section';
import { RecertificationSection } from './recertification/recertification-section';

/**
 * Where the parts of the console built in their own folders plug in (docs/requirements/staff-accounts.md):
 * `recertification/` adds its section (what is due, keep or remove) and `invitations/` its "Invite a person" button
 * and dialog. Each adds one entry here and nothing else of the console changes.
 */

/** A section of `/admin`: shown above Access requests and listed in the page's section links. */
export interface ConsoleSection {
  /** The id of its `PageSection` (its heading is `${id}-title`, which the section links jump to). */
  id: string;
  title: string;
  Component: ComponentType;
}

/** Sections, in page order (e.g. `{ id: 'recertification', title: 'Recertification', Component: … }`). */
export const consoleSections: ConsoleSection[] = [
  { id: 'invitations', title: 'Invitations', Component: InvitationsSection },
  { id: 'recertification', title: 'Recertification', Component: RecertificationSection },
];

/** Buttons beside the page's heading, each opening its own dialog (e.g. "Invite a person"). */
export const consoleActions: ComponentType[] = [];
