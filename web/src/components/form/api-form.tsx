import { zodResolver } from '@hookform/resolvers/zod';
import { Box, type SxProps, type Theme } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { FormProvider, useForm, type FieldValues, type Resolver, type UseFormProps } from 'react-hook-form';
import type { z } from 'zod/mini';
import { FormErrorSummary } from './form-error-summary';
import { lazyResolver } from './lazy-resolver';
import type { SchemaSource } from './request-resolver';
import { useApiFormSubmit, type ApiFormSubmitOptions } from './use-api-form-submit';

/** How the form checks its values: a zod schema (or its loader), or a resolver built elsewhere (`requestResolver`). */
type Validation<T extends FieldValues, R> =
  | {
      /** The request's schema, or a loader (`() => import(…).then((m) => m.X)`): built at the first validation. */
      schema: SchemaSource<z.ZodMiniType>;
      /** A message for an issue the schema gives none (by the issue's first path segment). */
      schemaMessage?: (field: string) => string | undefined;
      resolver?: never;
    }
  | { resolver: Resolver<T, unknown, R>; schema?: never; schemaMessage?: never };

export type ApiFormOptions<T extends FieldValues, R = T> = Validation<T, R> &
  ApiFormSubmitOptions<T, R> &
  Omit<UseFormProps<T, unknown, R>, 'resolver' | 'shouldFocusError'> & {
    /** Each field's element id (dotted paths for nested fields): the summary links there, in this order. */
    fieldIds: ApiFormFieldIds<T>;
  };
type ApiFormFieldIds<T extends FieldValues> = Parameters<typeof useApiFormSubmit<T>>[1];

/**
 * The portal's form (docs/decisions/0073-form-and-action-primitives.md): react-hook-form checked by the request's zod
 * schema (loaded at the first validation, docs/decisions/0060), the submit to the API
 * with the server's field errors placed on their fields, and the error summary that takes the focus (never the first
 * invalid field: `shouldFocusError` is off for every form). Render it with `<ApiForm form={…}>`.
 */
export function useApiForm<T extends FieldValues, R = T>(options: ApiFormOptions<T, R>) {
  const { schema, schemaMessage, resolver, fieldIds, submit, clearOnError, fieldForCode, sentences, ...formProps } =
    options;
  // Built once per form: react-hook-form keeps the resolver it was given first.
  const [builtResolver] = useState<Resolver<T, unknown, R>>(
    () =>
      resolver ??
      lazyResolver<T, unknown, R>(
        async () =>
          zodResolver((typeof schema === 'function' ? await schema() : schema) as never, {
            error: schemaMessage && ((issue) => schemaMessage(String(issue.path?.[0]))),
          }) as unknown as Resolver<T, unknown, R>,
      ),
  );
  const form = useForm<T, unknown, R>({ ...formProps, resolver: builtResolver, shouldFocusError: false });
  const submitted = useApiFormSubmit(form, fieldIds, { submit, clearOnError, fieldForCode, sentences });
  return {
    ...submitted,
    form,
    submitting: form.formState.isSubmitting,
    submitCount: form.formState.submitCount,
  };
}

export type ApiFormState<T extends FieldValues, R = T> = ReturnType<typeof useApiForm<T, R>>;

/**
 * A `useApiForm` form: the fields in its context, `noValidate` (the schema's messages, not the browser's), and the
 * error summary at its top (after `heading`, when the form has one of its own).
 */
export function ApiForm<T extends FieldValues, R = T>({
  form: state,
  label,
  labelledBy,
  heading,
  testId,
  sx,
  summary = true,
  children,
}: {
  form: ApiFormState<T, R>;
  /** The form's accessible name (`aria-label`), or the id of the heading that names it. */
  label?: string;
  labelledBy?: string;
  heading?: ReactNode;
  testId?: string;
  sx?: SxProps<Theme>;
  /** False where the form puts `<ApiFormSummary>` itself (a dialog's, inside its content under the title). */
  summary?: boolean;
  children: ReactNode;
}) {
  return (
    <FormProvider {...state.form}>
      <Box
        component="form"
        onSubmit={state.onSubmit}
        noValidate
        aria-label={label}
        aria-labelledby={labelledBy}
        data-testid={testId}
        sx={sx}
      >
        {heading}
        {summary && <ApiFormSummary form={state} />}
        {children}
      </Box>
    </FormProvider>
  );
}

/** A `useApiForm` form's error summary, for a form that does not have it at its top. */
export function ApiFormSummary<T extends FieldValues, R = T>({ form }: { form: ApiFormState<T, R> }) {
  return <FormErrorSummary errors={form.summary} submitCount={form.submitCount} />;
}
