import { useCallback, useEffect, useRef, useState, type SetStateAction } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { WIZARD_STEP_PARAM } from '@portal/contracts/paths';
import { useHydrated } from './use-hydrated';

export { WIZARD_STEP_PARAM };

function tabStorage(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    // Storage blocked by the browser's settings: the wizard still works, a refresh starts it again.
    return undefined;
  }
}

function readStored<T>(key: string): Partial<T> | undefined {
  try {
    const text = tabStorage()?.getItem(key);
    const value: unknown = text ? JSON.parse(text) : undefined;
    return value && typeof value === 'object' ? (value as Partial<T>) : undefined;
  } catch {
    return undefined;
  }
}

/** Forgets what a wizard kept in the tab (it was completed). */
export function forgetWizard(key: string): void {
  tabStorage()?.removeItem(key);
}

export interface WizardOptions<S extends string, T> {
  /** The tab's session storage key of the kept values. */
  storageKey: string;
  /** The steps in order; the first is always shown when no other can be. */
  steps: readonly S[];
  initial: () => T;
  /** Whether `step` can be shown with `state` (the values and tokens it needs are there). */
  reachable: (step: S, state: T) => boolean;
  /** What of the state the tab keeps: never a password, a security answer or an emailed code. */
  kept: (state: T) => Partial<T>;
}

export interface Wizard<S extends string, T> {
  step: S;
  state: T;
  setState: (update: SetStateAction<T>) => void;
  /** Goes to `step` as a new history entry (Back returns to this one). */
  go: (step: S, changes?: Partial<T>) => void;
  /** True once the person moved between steps in this page (the step's heading then takes the focus). */
  moved: boolean;
  /** Changes when the kept values were read back after a refresh: the step's form is mounted again with them. */
  generation: number;
}

/**
 * A multi-step flow whose steps are history entries and whose values survive a refresh within the tab
 * (docs/requirements/portal.md#multi-step-flows): the step is the URL's `?step=`, so Back, Forward and a refresh
 * keep it; the values are kept in the tab's session storage, without passwords, answers or codes. A step whose
 * values are not there (a refresh after the password step, a link opened in another tab) shows the furthest step
 * before it that can be shown.
 *
 * The server renders the first step (it renders pages without their query string); the asked step and what the tab
 * kept are read once the page has hydrated (use-hydrated.ts).
 */
export function useWizard<S extends string, T>(options: WizardOptions<S, T>): Wizard<S, T> {
  const { storageKey, steps, reachable, kept } = options;
  const hydrated = useHydrated();
  const [state, setStateValue] = useState<T>(options.initial);
  const [generation, setGeneration] = useState(0);
  const loaded = useRef(false);
  const initial = useRef(options.initial);

  useEffect(() => {
    if (!hydrated || loaded.current) return;
    loaded.current = true;
    const stored = readStored<T>(storageKey);
    if (!stored) return;
    setStateValue({ ...initial.current(), ...stored });
    setGeneration((g) => g + 1);
  }, [hydrated, storageKey]);

  useEffect(() => {
    if (!loaded.current) return;
    try {
      tabStorage()?.setItem(storageKey, JSON.stringify(kept(state)));
    } catch {
      // Full or blocked storage: only the refresh loses the values.
    }
  }, [state, storageKey, kept]);

  const [params] = useSearchParams();
  // The server renders a page without its query string (entry-server.tsx): the asked step shows once hydrated.
  const asked = hydrated ? steps.indexOf(params.get(WIZARD_STEP_PARAM) as S) : -1;
  let index = asked < 0 ? 0 : asked;
  while (index > 0 && !reachable(steps[index]!, state)) index -= 1;
  const step = steps[index]!;

  const location = useLocation();
  // The history entry the page opened on: any other one was reached by moving between steps.
  const [firstKey] = useState(location.key);
  const navigate = useNavigate();
  const go = useCallback(
    (next: S, changes?: Partial<T>) => {
      if (changes) setStateValue((current) => ({ ...current, ...changes }));
      void navigate({ search: `?${WIZARD_STEP_PARAM}=${next}` });
    },
    [navigate],
  );

  return { step, state, setState: setStateValue, go, moved: location.key !== firstKey, generation };
}

/**
 * Reports a form's values as they are typed, so the wizard keeps them when the person leaves the step by the
 * browser's Back or refreshes the page (neither lets the step hand its values over).
 */
export function useReportedValues<V extends FieldValues>(
  form: UseFormReturn<V, unknown, unknown>,
  onValues: ((values: V) => void) | undefined,
): void {
  const report = useRef(onValues);
  useEffect(() => {
    report.current = onValues;
  });
  useEffect(() => {
    const subscription = form.watch(() => report.current?.(form.getValues()));
    return () => subscription.unsubscribe();
  }, [form]);
}
