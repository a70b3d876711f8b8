import * as React from 'react';
import { Box, Checkbox, Field, Flex, Typography } from '@strapi/design-system';
import { useField } from '@strapi/strapi/admin';
import jurisdictions from '../../../packages/contracts/src/jurisdictions.json';

/**
 * The topic's jurisdictions as a labelled group of checkboxes (J5 MAC Part A, …). The value stays what the
 * portal reads: a JSON list of codes in the contracts' order; none ticked stores [] (the topic is for everyone).
 */
const JurisdictionsInput = React.forwardRef(({ name, label, hint, required, disabled }, ref) => {
  const field = useField(name);
  const chosen = Array.isArray(field.value) ? field.value : [];
  const toggle = (code, checked) => {
    const next = jurisdictions.map((j) => j.value).filter((v) => (v === code ? checked : chosen.includes(v)));
    field.onChange(name, next);
  };
  const legendId = `${name}-legend`;
  return (
    <Field.Root name={name} id={name} error={field.error} hint={hint} required={required}>
      <Box tag="fieldset" ref={ref} aria-labelledby={legendId} style={{ border: 0, padding: 0, margin: 0 }}>
        <Typography id={legendId} tag="legend" variant="pi" fontWeight="bold" textColor="neutral800">
          {label}
        </Typography>
        <Flex direction="column" alignItems="flex-start" gap={2} paddingTop={2} paddingBottom={1}>
          {jurisdictions.map((j) => (
            <Checkbox
              key={j.value}
              name={`${name}.${j.value}`}
              value={j.value}
              disabled={disabled}
              checked={chosen.includes(j.value)}
              onCheckedChange={(checked) => toggle(j.value, checked === true)}
            >
              {`${j.title} (${j.value})`}
            </Checkbox>
          ))}
        </Flex>
      </Box>
      <Field.Hint />
      <Field.Error />
    </Field.Root>
  );
});

export default JurisdictionsInput;
