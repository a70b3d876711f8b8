import { DesktopDatePicker } from '@mui/x-date-pickers/DesktopDatePicker';
import { DATE_MAX, DATE_MIN } from '@portal/contracts/field-limits';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useController, useFormContext, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { useFieldErrorText } from './form-text-field';

/** docs/requirements/portal.md#forms: date pickers accept 1900-01-01 to 2099-12-31 and show MM/DD/YYYY. */
export const DATE_FIELD_MIN = DATE_MIN;
export const DATE_FIELD_MAX = DATE_MAX;
const DISPLAY_FORMAT = 'MM/DD/YYYY';
const VALUE_FORMAT = 'YYYY-MM-DD';
/** What the form holds for a date typed only in part or not a real date: the schema rejects it like a missing one. */
export const INCOMPLETE_DATE = 'incomplete';

function toFormValue(date: Dayjs | null): string {
  if (!date) return '';
  return date.isValid() ? date.format(VALUE_FORMAT) : INCOMPLETE_DATE;
}

function fromFormValue(value: string | undefined): Dayjs | null {
  if (!value || value === INCOMPLETE_DATE) return null;
  const date = dayjs(value, VALUE_FORMAT);
  return date.isValid() ? date : null;
}

/**
 * A date field of the form pattern (MUI X date picker with the dayjs adapter): typed as MM/DD/YYYY or chosen from
 * the calendar, limited to 1900-01-01..2099-12-31. The form holds the date as `YYYY-MM-DD` ('' when empty), the
 * shape the contracts' schemas check, so the range and "missing" messages come from the same schema as the
 * server's. The error (an error code as its CMS text) is the helper text, tied to the field with aria-describedby.
 * `past` (a date of birth, a date of service): the calendar offers no day after today; a later day typed in is
 * refused by the form's schema next to the field (docs/requirements/portal.md#field-rules).
 *
 * The desktop picker on every device (a typed field and a calendar button that opens a popover): MUI's `DatePicker`
 * renders it on the server and while hydrating, then, on a touch screen, swaps it for the mobile one (no button, a
 * calendar dialog) in a synchronous re-render — the largest task of a phone's page load (docs/decisions/0060).
 */
export function FormDateField<T extends FieldValues, R = T>({
  id,
  label,
  name,
  control,
  helperText,
  required,
  past,
}: {
  id: string;
  label: string;
  name: FieldPath<T>;
  /** The form's control (whatever its resolver turns the values into); by default the `FormProvider`'s. */
  control?: Control<T, unknown, R>;
  helperText?: string;
  required?: boolean;
  /** A day that has already happened: the calendar stops at today. */
  past?: boolean;
}) {
  const context = useFormContext<T, unknown, R>() as ReturnType<typeof useFormContext<T, unknown, R>> | null;
  const { field, fieldState } = useController({ name, control: control ?? context?.control });
  const errorText = useFieldErrorText(fieldState.error);
  // The picker keeps its own value while a date is typed in part; the form gets the string form of it.
  const [pickerValue, setPickerValue] = useState<Dayjs | null>(() => fromFormValue(field.value));
  // Only an outside change of the form value (a reset, Back) replaces what the picker holds (React's "adjust state
  // when a prop changes" pattern, no effect).
  const [seenValue, setSeenValue] = useState(field.value);
  if (seenValue !== field.value) {
    setSeenValue(field.value);
    if (field.value !== toFormValue(pickerValue)) setPickerValue(fromFormValue(field.value));
  }

  return (
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <DesktopDatePicker
        label={label}
        value={pickerValue}
        format={DISPLAY_FORMAT}
        minDate={dayjs(DATE_FIELD_MIN)}
        maxDate={dayjs(DATE_FIELD_MAX)}
        disableFuture={past}
        onChange={(date) => {
          setPickerValue(date);
          field.onChange(toFormValue(date));
        }}
        inputRef={field.ref}
        slotProps={{
          textField: {
            id,
            name: field.name,
            required,
            error: !!fieldState.error,
            helperText: errorText ?? helperText ?? 'MM/DD/YYYY',
            fullWidth: true,
            margin: 'normal',
            onBlur: field.onBlur,
          },
          // The calendar popover is named by the field's label: MUI X names it after an id of its own that, with the
          // field's id given here, no element has (axe: aria-dialog-name).
          popper: { 'aria-labelledby': `${id}-label` },
        }}
      />
    </LocalizationProvider>
  );
}

/**
 * The date of birth (docs/requirements/portal.md#field-rules): a past date from 1900-01-01, checked by the form's
 * resolver with the contracts' `dateOfBirthSchema` (`Date_Of_Birth_Invalid`, `Date_Of_Birth_In_Future` next to the
 * field) and again by the server. The calendar offers no day after today.
 */
export function DateOfBirthField<T extends FieldValues, R = T>({
  id,
  name,
  helperText,
}: {
  id: string;
  name: FieldPath<T>;
  helperText?: string;
}) {
  return <FormDateField<T, R> id={id} label="Date of birth" name={name} helperText={helperText} required past />;
}
