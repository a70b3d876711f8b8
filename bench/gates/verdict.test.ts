// The gates' verdict over their window figures (bench/gates/verdict.ts): figures in, PASS, FAIL or no verdict out.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT, judged, summarize } from './result';
import { disagreement, ratioVerdict } from './verdict';

afterEach(() => vi.restoreAllMocks());

describe('ratioVerdict', () => {
  it('refuses a verdict when the control disagrees with itself by more than 10 %, whatever the ratio', () => {
    // The quiet run: the control's two-process windows, 496 requests each, took 2.44 and 1.74 CPU-s.
    const control = [496 / 2.44, 496 / 1.74];
    for (const ratios of [
      [1.02, 1.03],
      [0.75, 0.76],
    ]) {
      const verdict = ratioVerdict({ ratios, control, atLeast: 0.9 });
      expect(verdict.outcome).toBe('no verdict');
      expect(verdict).toMatchObject({ reason: 'control disagrees with itself by 40.2 % (> 10 %)' });
    }
  });

  it('gives PASS or FAIL by the median ratio when the control repeats', () => {
    const control = [0.76, 0.74, 0.78];
    expect(ratioVerdict({ ratios: [0.93, 0.95, 0.94], control, atLeast: 0.9 })).toMatchObject({
      outcome: 'PASS',
      figure: 0.94,
    });
    expect(ratioVerdict({ ratios: [0.86, 0.88, 0.85], control, atLeast: 0.9 })).toMatchObject({
      outcome: 'FAIL',
      figure: 0.86,
    });
    // Two cycles: the mean of the two.
    expect(ratioVerdict({ ratios: [0.89, 0.93], control: [0.76, 0.8], atLeast: 0.9 })).toMatchObject({
      outcome: 'PASS',
      figure: expect.closeTo(0.91, 10),
    });
  });

  it('refuses a verdict when the judged ratio itself does not repeat, even with a steady control', () => {
    const verdict = ratioVerdict({ ratios: [0.8, 1.0, 0.95], control: [0.76, 0.77, 0.75], atLeast: 0.9 });
    expect(verdict).toMatchObject({
      outcome: 'no verdict',
      reason: 'the ratio disagrees with itself by 25.0 % (> 10 %)',
    });
  });

  it('refuses a verdict from one cycle, which cannot show that it repeats', () => {
    expect(ratioVerdict({ ratios: [0.95], control: [0.76], atLeast: 0.9 })).toMatchObject({
      outcome: 'no verdict',
      reason: 'measured once: nothing shows that it repeats',
    });
  });

  it('takes a window that measured nothing as a control that does not repeat', () => {
    expect(ratioVerdict({ ratios: [0.95, 0.96], control: [0, 0.76], atLeast: 0.9 })).toMatchObject({
      outcome: 'no verdict',
      reason: 'control disagrees with itself by ∞ % (> 10 %)',
    });
  });
});

describe('disagreement', () => {
  it('is the largest figure over the smallest, less one', () => {
    expect(disagreement([2, 2.2, 2.1])).toBeCloseTo(0.1, 10);
    expect(disagreement([5, 5])).toBe(0);
  });
});

describe('summarize', () => {
  const quietly = () => vi.spyOn(console, 'log').mockImplementation(() => {});
  const pass = { gate: 'g', name: 'a', figure: '1', target: '≥ 1', pass: true };
  const fail = { ...pass, name: 'b', pass: false };

  it('answers an exit code of its own when a check gave no verdict and none failed', () => {
    const log = quietly();
    const refused = judged('load', 'ratio', '1.02', '≥ 0.9', {
      outcome: 'no verdict',
      reason: 'control disagrees with itself by 40.2 % (> 10 %)',
      figure: 1.02,
      spread: 0,
      controlSpread: 0.4,
    });
    expect(log).toHaveBeenCalledWith(
      '  no verdict  load: ratio — no verdict: control disagrees with itself by 40.2 % (> 10 %); measured 1.02 (target ≥ 0.9)',
    );
    expect(summarize([pass, refused])).toBe(EXIT.noVerdict);
    expect(summarize([pass, refused, fail])).toBe(EXIT.fail);
    expect(summarize([pass])).toBe(EXIT.pass);
    expect(new Set(Object.values(EXIT)).size).toBe(3);
  });
});
