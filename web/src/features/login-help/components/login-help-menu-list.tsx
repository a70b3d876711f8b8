import { Menu, MenuItem } from '@mui/material';
import { Link as RouterLink } from 'react-router';

/**
 * The Help menu's list (loaded on demand by LoginHelpMenu). It stays inside the header (no portal), so its
 * content belongs to the header's landmark.
 */
export default function LoginHelpMenuList({
  id,
  labelledBy,
  anchorEl,
  links,
  onClose,
}: {
  id: string;
  labelledBy: string;
  anchorEl: HTMLElement | null;
  links: { label: string; href: string }[];
  onClose: () => void;
}) {
  return (
    <Menu
      id={id}
      anchorEl={anchorEl}
      open
      onClose={onClose}
      disablePortal
      slotProps={{ list: { 'aria-labelledby': labelledBy } }}
    >
      {links.map((link) => (
        <MenuItem key={link.href} component={RouterLink} to={link.href} onClick={onClose}>
          {link.label}
        </MenuItem>
      ))}
    </Menu>
  );
}
