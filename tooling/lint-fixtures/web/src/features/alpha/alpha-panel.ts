// Bad: a feature importing another feature.
import { betaTitle } from '../beta/beta-title';

export const alphaTitle = `alpha and ${betaTitle}`;
