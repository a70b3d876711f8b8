// Good: identity/ on top of platform/.
import { plumbing } from '../platform/plumbing';

export const accountRule = () => plumbing();
