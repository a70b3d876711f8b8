import { TextField } from '@mui/material';
import { lazy, Suspense, useEffect, useState, type ComponentProps } from 'react';
import type { FieldValues } from 'react-hook-form';
import type { DateOfBirthField as DateOfBirthFieldType } from './form-date-field';

type DateFieldModule = typeof import('./form-date-field');

let loaded: DateFieldModule | undefined;
let loading: Promise<DateFieldModule> | undefined;

/**
 * Loads the date field's code (MUI X's picker and dayjs) once; a failed load is tried again at the next call. Its
 * chunk was 249 ms of a phone's load of `/register/user` (4× CPU slowdown) although the page's first step has no date
 * (issue 39, docs/decisions/0060).
 */
export function loadDateField(): Promise<DateFieldModule> {
  loading ??= import('./form-date-field').then(
    (m) => (loaded = m),
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

/**
 * Starts loading the date field at the page's first interaction (a focus, a touch or a click): a step further on has
 * one, so it is near; nothing is loaded while the page hydrates and becomes interactive.
 */
export function usePreloadDateField(): void {
  useEffect(() => {
    const start = () => {
      void loadDateField().catch(() => undefined);
      document.removeEventListener('focusin', start);
      document.removeEventListener('pointerdown', start);
    };
    document.addEventListener('focusin', start);
    document.addEventListener('pointerdown', start);
    return () => {
      document.removeEventListener('focusin', start);
      document.removeEventListener('pointerdown', start);
    };
  }, []);
}

const LazyField = lazy(() => loadDateField().then((m) => ({ default: m.DateOfBirthField })));

/**
 * `DateOfBirthField` (form-date-field.tsx) for a form shown only once the page is interactive (a wizard's later step):
 * rendered at once when its code is there (loaded by `usePreloadDateField` or an earlier step), otherwise loaded now,
 * with a read-only field of the same label, helper text and size in its place meanwhile (no layout shift).
 */
export function LazyDateOfBirthField<T extends FieldValues, R = T>(
  props: ComponentProps<typeof DateOfBirthFieldType<T, R>>,
) {
  // Decided once per mount: switching from the lazy element to the module's own would mount the picker again.
  const [ready] = useState(() => loaded);
  if (ready) return <ready.DateOfBirthField<T, R> {...props} />;
  const Field = LazyField as typeof DateOfBirthFieldType<T, R>;
  return (
    <Suspense
      fallback={
        <TextField
          id={props.id}
          label="Date of birth"
          helperText={props.helperText ?? 'MM/DD/YYYY'}
          required
          fullWidth
          margin="normal"
          slotProps={{ htmlInput: { readOnly: true } }}
        />
      }
    >
      <Field {...props} />
    </Suspense>
  );
}
