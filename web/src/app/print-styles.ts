import { PRINT_BLOCK_ID } from '../features/content/components/use-print-block';

/** Selectors for "only the print block shows", scoped under `scope` (a body selector). */
const onlyTheBlock = (scope: string) => ({
  [`${scope} *`]: { visibility: 'hidden' },
  [`${scope} #${PRINT_BLOCK_ID}, ${scope} #${PRINT_BLOCK_ID} *`]: { visibility: 'visible' },
  [`${scope} #${PRINT_BLOCK_ID}`]: { position: 'absolute', left: 0, top: 0, width: '100%' },
});

/**
 * While the Print button is printing (body[data-printing]) and in the browser's own print of a page that has a
 * print block, only that block shows (docs/requirements/public-site.md#print).
 */
export const printStyles = {
  ...onlyTheBlock('body[data-printing="block"]'),
  '@media print': onlyTheBlock(`body:has(#${PRINT_BLOCK_ID})`),
};
