// A ratio gate's verdict only when its measurement repeats (docs/decisions/0086-gates-that-agree-with-themselves.md).
// A gate measures its figure in cycles, each pairing windows of the thing judged with windows of its control taken
// right beside them (interleaved, so the shared machine's drift falls on both alike). The control's figure of each
// cycle must agree with itself, and so must the judged ratio of each cycle: when the largest is more than
// MAX_DISAGREEMENT above the smallest, the gate refuses a verdict and says why. Pure functions over window figures,
// tested in verdict.test.ts; the gates print what they answer.

/** Repeated figures of one measurement may differ by at most this much (largest ÷ smallest − 1). */
export const MAX_DISAGREEMENT = 0.1;

/** How far apart repeated figures of one measurement are: the largest ÷ the smallest − 1 (0.4: 40 % apart). */
export function disagreement(figures: readonly number[]): number {
  if (figures.length === 0) return Number.POSITIVE_INFINITY;
  const low = Math.min(...figures);
  const high = Math.max(...figures);
  if (!(low > 0) || !Number.isFinite(high)) return Number.POSITIVE_INFINITY;
  return high / low - 1;
}

const percent = (fraction: number, digits = 1) =>
  Number.isFinite(fraction) ? `${(fraction * 100).toFixed(digits)} %` : '∞ %';

/** The middle figure, or the mean of the two middle ones. */
export function middle(figures: readonly number[]): number {
  const sorted = [...figures].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
}

export type Verdict =
  | { outcome: 'PASS' | 'FAIL'; figure: number; spread: number; controlSpread: number }
  | { outcome: 'no verdict'; reason: string; figure: number; spread: number; controlSpread: number };

export interface RatioWindows {
  /** The judged ratio of each cycle: the subject's figure over its control's, both from that cycle's windows. */
  ratios: readonly number[];
  /** The control's figure each time it was measured (at least twice). */
  control: readonly number[];
  /** The target: the median of `ratios` must be at least this. */
  atLeast: number;
  maxDisagreement?: number;
}

/**
 * The verdict over a gate's cycles: no verdict when there are fewer than two of them, when the control disagrees
 * with itself, or when the judged ratio does, by more than `maxDisagreement`; otherwise PASS or FAIL by the median
 * ratio against `atLeast`.
 */
export function ratioVerdict({ ratios, control, atLeast, maxDisagreement = MAX_DISAGREEMENT }: RatioWindows): Verdict {
  const figure = ratios.length ? middle(ratios) : Number.NaN;
  const spread = disagreement(ratios);
  const controlSpread = disagreement(control);
  const base = { figure, spread, controlSpread };
  const limit = percent(maxDisagreement, 0);
  if (ratios.length < 2 || control.length < 2)
    return { outcome: 'no verdict', reason: 'measured once: nothing shows that it repeats', ...base };
  if (controlSpread > maxDisagreement)
    return {
      outcome: 'no verdict',
      reason: `control disagrees with itself by ${percent(controlSpread)} (> ${limit})`,
      ...base,
    };
  if (spread > maxDisagreement)
    return {
      outcome: 'no verdict',
      reason: `the ratio disagrees with itself by ${percent(spread)} (> ${limit})`,
      ...base,
    };
  return { outcome: figure >= atLeast ? 'PASS' : 'FAIL', ...base };
}

/** `median (min–max), spread N %` of per-cycle figures. */
export function describeRepeats(figures: readonly number[], digits = 2): string {
  if (figures.length === 0) return 'none';
  const low = Math.min(...figures);
  const high = Math.max(...figures);
  return `${middle(figures).toFixed(digits)} (${low.toFixed(digits)}–${high.toFixed(digits)}, ${percent(disagreement(figures))} apart)`;
}
