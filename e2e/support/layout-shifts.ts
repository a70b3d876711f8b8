import type { BrowserContext, Page } from 'playwright-core';

/**
 * Sums every layout shift not caused by input, from the first paint on (the PerformanceObserver's buffer), and
 * describes each: its time, and each moved element (its test id or id) with its box before and after.
 */
export async function recordLayoutShifts(context: BrowserContext) {
  await context.addInitScript(() => {
    const w = window as unknown as { __cls: number; __shifts: string[] };
    w.__cls = 0;
    w.__shifts = [];
    const box = (r: DOMRectReadOnly) =>
      `(${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)})`;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        w.__cls += entry.value;
        const moved = (entry.sources ?? []).map(({ node, previousRect, currentRect }) => {
          if (!(node instanceof Element)) return `${String(node?.nodeName)} ${box(previousRect)} → ${box(currentRect)}`;
          const testId = node.getAttribute('data-testid');
          const name = `${node.tagName}${node.id ? `#${node.id}` : ''}${testId ? `[data-testid=${testId}]` : ''}`;
          return `${name}.${String(node.className).slice(0, 40)} ${box(previousRect)} → ${box(currentRect)}`;
        });
        w.__shifts.push(`${entry.value.toFixed(4)} at ${Math.round(entry.startTime)} ms: ${moved.join(', ')}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

export const layoutShifts = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __cls: number; __shifts: string[] };
    return { cls: w.__cls, shifts: w.__shifts };
  });
