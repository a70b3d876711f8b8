import { Box, ButtonBase, Checkbox, FormControlLabel, Grid, Typography } from '@mui/material';
import { useId, useState, type ElementType } from 'react';
import type { Jurisdiction } from '@portal/contracts';
import { defaultJurisdictionImage, providersLabel, selectableJurisdictions } from '@portal/contracts/jurisdiction-list';
import { siteConfig } from '../../config/site-config';

/** Texts of docs/requirements/public-site.md#jurisdiction-picker, quoted exactly. */
export const PICKER_TITLE = 'Get the right info.';
export const PICKER_BODY =
  'Medicare policies can vary by state and are different for Part A and Part B. Please click a jurisdiction below.';
export const REMEMBER_LABEL = 'Remember my selection';
export const COOKIE_NOTICE = 'NOTE: This website uses cookies.';

export function jurisdictionImageUrl(file: string | undefined) {
  return `${siteConfig.jurisdictionImageBase}${file ?? defaultJurisdictionImage}`;
}

interface JurisdictionChooserProps {
  selected: Jurisdiction | '';
  onChoose: (value: Jurisdiction, remember: boolean) => void;
  /** Id of the element that names this chooser (the dialog title, or the inline heading). */
  titleId?: string;
  /** Inline on the home page the title is a heading; in the dialog, DialogTitle renders it. */
  heading?: ElementType | null;
  bodyId?: string;
}

/** The picker's content: body text, one tile per jurisdiction (50% wide, 150×150 map), remember checkbox, cookie notice. */
export function JurisdictionChooser({ selected, onChoose, titleId, heading = 'h2', bodyId }: JurisdictionChooserProps) {
  const [remember, setRemember] = useState(false);
  const fallbackId = useId();
  return (
    <Box>
      {heading && (
        <Typography id={titleId ?? fallbackId} component={heading} variant="h2" gutterBottom>
          {PICKER_TITLE}
        </Typography>
      )}
      <Typography id={bodyId} sx={{ mb: 2 }}>
        {PICKER_BODY}
      </Typography>
      <Grid container spacing={0} role="list" aria-label="Jurisdictions">
        {selectableJurisdictions.map((option) => {
          const isSelected = option.value === selected;
          return (
            <Grid key={option.value} size={6} role="listitem" sx={{ p: 0.75 }} data-testid={`tile-${option.value}`}>
              <ButtonBase
                focusRipple
                onClick={() => onChoose(option.value, remember)}
                aria-pressed={isSelected}
                aria-label={`${option.title}: ${providersLabel(option)}`}
                sx={{
                  width: '100%',
                  flexDirection: 'column',
                  alignItems: 'center',
                  gap: 1,
                  p: 1.5,
                  borderRadius: 2,
                  border: '2px solid',
                  borderColor: isSelected ? 'primary.main' : 'grey.300',
                  bgcolor: isSelected ? 'rgba(4, 39, 137, 0.06)' : 'background.paper',
                  '&:hover': { borderColor: 'primary.main' },
                  '&.Mui-focusVisible': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: 2 },
                }}
              >
                <Typography component="span" sx={{ fontWeight: 700, color: 'primary.main' }}>
                  {option.title}
                </Typography>
                <Box
                  component="img"
                  src={jurisdictionImageUrl(option.svg)}
                  alt=""
                  width={150}
                  height={150}
                  sx={{ width: 150, height: 150, maxWidth: '100%', objectFit: 'contain' }}
                  onError={(event) => {
                    const img = event.currentTarget;
                    const fallback = jurisdictionImageUrl(undefined);
                    if (!img.src.endsWith(fallback)) img.src = fallback;
                  }}
                />
                <Typography component="span" variant="body2" sx={{ textAlign: 'center' }}>
                  {providersLabel(option)}
                </Typography>
              </ButtonBase>
            </Grid>
          );
        })}
      </Grid>
      <FormControlLabel
        sx={{ mt: 1 }}
        control={<Checkbox checked={remember} onChange={(e) => setRemember(e.target.checked)} />}
        label={REMEMBER_LABEL}
      />
      <Typography variant="body2" sx={{ mt: 1 }}>
        {COOKIE_NOTICE}
      </Typography>
    </Box>
  );
}
