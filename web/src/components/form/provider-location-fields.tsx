import { isJurisdiction, selectableJurisdictions, toJurisdictionParts } from '@portal/contracts';
import { useEffect } from 'react';
import type { Path, PathValue, UseFormReturn } from 'react-hook-form';
import { useRegion } from '../../lib/region/region-context';
import type { z } from 'zod/mini';
import { FormSelectField } from './form-select-field';
import { ProviderIdentifierFields } from './provider-identifier-fields';
import { requestResolver, type SchemaSource } from './request-resolver';

/** A provider location as a form names it: the identifiers, and the jurisdiction with its line of business. */
export interface ProviderLocationValues {
  npi: string;
  ptan: string;
  tin: string;
  /** The jurisdiction and line of business as one choice (`J5B`), the way the region picker names them. */
  region: string;
}

export const regionOptions = selectableJurisdictions.map((entry) => ({ value: entry.value, label: entry.title }));
const REGION_MESSAGE = 'Choose the jurisdiction and line of business.';

/** The location's fields as the request `schema` takes them (`region` split into jurisdiction and line of business). */
export function providerLocationResolver<V extends ProviderLocationValues, S extends z.ZodMiniType>(
  schema: SchemaSource<S>,
  extra: (values: V) => object = () => ({}),
) {
  return requestResolver(
    schema,
    (values: V) => {
      const { region, npi, ptan, tin } = values;
      return {
        npi,
        ptan,
        tin,
        ...(isJurisdiction(region) ? toJurisdictionParts(region) : { jurisdiction: '', lineOfBusiness: '' }),
        ...extra(values),
      };
    },
    { jurisdiction: REGION_MESSAGE, lineOfBusiness: REGION_MESSAGE },
    { jurisdiction: 'region', lineOfBusiness: 'region' },
  );
}

/**
 * NPI, PTAN, TIN and the jurisdiction with its line of business (docs/requirements/portal.md#provider-validation):
 * the administrator's provider step and an end user's access request ask for a location the same way.
 */
export function ProviderLocationFields<T extends ProviderLocationValues, R>({
  form,
  ids,
}: {
  form: UseFormReturn<T, unknown, R>;
  ids: Record<keyof ProviderLocationValues, string>;
}) {
  const region = 'region' as Path<T>;
  // The jurisdiction chosen on the site fills an empty field, also when it is chosen (in the header) after the form
  // was opened, or the form came back with its typed values from before the choice (issue 38 item 14).
  const { jurisdiction } = useRegion();
  useEffect(() => {
    if (isJurisdiction(jurisdiction) && !form.getValues(region))
      form.setValue(region, jurisdiction as PathValue<T, Path<T>>);
  }, [jurisdiction, form, region]);
  return (
    <>
      <ProviderIdentifierFields form={form} ids={{ npi: ids.npi, ptan: ids.ptan, tin: ids.tin } as never} />
      <FormSelectField
        id={ids.region}
        label="Jurisdiction and line of business"
        options={regionOptions}
        registration={form.register(region)}
        error={form.getFieldState(region, form.formState).error}
        required
      />
    </>
  );
}
