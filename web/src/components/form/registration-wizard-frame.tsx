import { Box, Link, Step, StepLabel, Stepper, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { paths } from '../../config/paths';
import { StepHeading } from './step-heading';

/**
 * The page around a registration wizard (`/register`, `/register/user`): its `h1`, the intro with the way to the other
 * wizard and to log in (left out on the last step, "Check your email"), an optional notice, the stepper (hidden from
 * assistive technology: the step heading says "Step n of m") and the heading of the step shown. `generation` keys the
 * steps so that a restarted wizard shows its values afresh (use-wizard.ts).
 */
export function RegistrationWizardFrame({
  title,
  intro,
  otherWizard,
  notice,
  stepTitles,
  index,
  moved,
  heading,
  generation,
  children,
}: {
  title: string;
  intro: string;
  /** The other wizard: the question before the link, where it goes and its text. */
  otherWizard: { question: string; href: string; label: string };
  /** Shown under the intro before the last step, as the links are. */
  notice?: ReactNode;
  stepTitles: readonly string[];
  index: number;
  moved: boolean;
  /** The step heading's text where it is not the step's title. */
  heading?: ReactNode;
  generation: number;
  children: ReactNode;
}) {
  const beforeLast = index < stepTitles.length - 1;
  return (
    <Box sx={{ maxWidth: 720, mx: 'auto' }}>
      <Typography component="h1" variant="h4" gutterBottom>
        {title}
      </Typography>
      <Typography sx={{ mb: 2 }}>
        {intro}
        {beforeLast && (
          <>
            {' '}
            {otherWizard.question}{' '}
            <Link component={RouterLink} to={otherWizard.href}>
              {otherWizard.label}
            </Link>
            . Already registered?{' '}
            <Link component={RouterLink} to={paths.login.href()}>
              Log in
            </Link>
            .
          </>
        )}
      </Typography>
      {beforeLast && notice}
      <Stepper activeStep={index} alternativeLabel sx={{ mb: 2 }} aria-hidden="true">
        {stepTitles.map((stepTitle) => (
          <Step key={stepTitle}>
            <StepLabel sx={{ '& .MuiStepLabel-label': { display: { xs: 'none', sm: 'block' } } }}>
              {stepTitle}
            </StepLabel>
          </Step>
        ))}
      </Stepper>
      <StepHeading key={index} focus={moved} progress={{ step: index + 1, of: stepTitles.length }}>
        {heading ?? stepTitles[index]}
      </StepHeading>

      <Box key={`values-${generation}`}>{children}</Box>
    </Box>
  );
}
