// Bad: db/ importing a feature module.
import { betaService } from '../modules/beta/service';

export const dbThing = betaService;
