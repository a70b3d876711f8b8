// Bad: platform/ importing a feature module.
import { betaService } from '../modules/beta/service';

export const platformThing = betaService;
