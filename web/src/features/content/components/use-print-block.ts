import { useCallback, useEffect, useRef } from 'react';

/** docs/requirements/public-site.md#print: printing hides everything but one block, then prints after 500 ms. */
export const PRINT_DELAY_MS = 500;
export const PRINT_BLOCK_ID = 'print-block';

export function usePrintBlock() {
  const timer = useRef<number | undefined>(undefined);
  const finish = useCallback(() => {
    delete document.body.dataset.printing;
  }, []);
  useEffect(() => {
    window.addEventListener('afterprint', finish);
    return () => {
      window.removeEventListener('afterprint', finish);
      window.clearTimeout(timer.current);
      finish();
    };
  }, [finish]);
  return useCallback(() => {
    document.body.dataset.printing = 'block';
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      window.print();
      // Browsers that do not fire afterprint still get the page back.
      window.setTimeout(finish, 1000);
    }, PRINT_DELAY_MS);
  }, [finish]);
}
