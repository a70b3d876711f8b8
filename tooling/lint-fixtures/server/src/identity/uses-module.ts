// Bad: identity/ importing a feature module, even its service.
import { betaService } from '../modules/beta/service';

export const identityThing = betaService;
