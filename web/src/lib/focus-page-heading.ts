/**
 * Moves the keyboard focus to the page's main heading (`<h1>` in the main content), made focusable by script only, so
 * that after a dialog closes or a step changes a screen-reader and keyboard user is somewhere meaningful rather than
 * on the page's body. Answers whether a heading took the focus.
 */
export function focusPageHeading(): boolean {
  const heading = document.querySelector<HTMLElement>('#main-content h1');
  if (!heading) return false;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus();
  return document.activeElement === heading;
}
