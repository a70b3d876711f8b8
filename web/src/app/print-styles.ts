import { PRINT_BLOCK_ID } from '../features/content/components/use-print-block';

const onlyTheBlock = {
  'body *': { visibility: 'hidden' },
  [`#${PRINT_BLOCK_ID}, #${PRINT_BLOCK_ID} *`]: { visibility: 'visible' },
  [`#${PRINT_BLOCK_ID}`]: { position: 'absolute', left: 0, top: 0, width: '100%' },
} as const;

/**
 * While the Print button is printing (body[data-printing]) and in the browser's own print of a page that has a
 * print block, only that block shows (spec §2).
 */
export const printStyles = {
  'body[data-printing="block"]': onlyTheBlock,
  '@media print': { [`body:has(#${PRINT_BLOCK_ID})`]: onlyTheBlock },
};
