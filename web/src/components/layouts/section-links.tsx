import { Link, List, ListItem, type SxProps, type Theme } from '@mui/material';
import type { MouseEvent } from 'react';
import { showUpTo } from '../../lib/render-when-near';

/**
 * Jumps to a section and puts focus on its heading (the URL stays: no router navigation, nothing reloads). The
 * sections up to it render first if they have not yet (lib/render-when-near.tsx), so nothing above it moves after.
 */
function goToSection(event: MouseEvent<HTMLAnchorElement>, id: string) {
  const heading = document.getElementById(`${id}-title`);
  if (!heading) return;
  event.preventDefault();
  showUpTo(heading.parentElement ?? heading);
  heading.scrollIntoView({ block: 'start' });
  heading.focus({ preventScroll: true });
}

/**
 * A page's table of sections (My account, the administrator's console): a link a section, to its heading
 * `<id>-title`. `inline`: the links in a row that wraps, instead of one under the other.
 */
export function SectionLinks({
  sections,
  inline = false,
  sx,
}: {
  sections: readonly { id: string; title: string }[];
  inline?: boolean;
  sx?: SxProps<Theme>;
}) {
  return (
    <List
      dense
      disablePadding
      sx={[inline && { display: 'flex', flexWrap: 'wrap', columnGap: 3 }, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      {sections.map(({ id, title }) => (
        <ListItem key={id} disableGutters sx={{ py: 0.25, ...(inline && { width: 'auto' }) }}>
          <Link href={`#${id}-title`} onClick={(event) => goToSection(event, id)}>
            {title}
          </Link>
        </ListItem>
      ))}
    </List>
  );
}
