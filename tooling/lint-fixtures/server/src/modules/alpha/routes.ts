// Bad: another module's internals; its service.ts is allowed.
import { betaInternal } from '../beta/internal';
import { betaService } from '../beta/service';

export const alphaRoutes = () => [betaInternal, betaService()];
