// Bad: lib/ importing a feature.
import { betaTitle } from '../features/beta/beta-title';

export const shared = betaTitle;
