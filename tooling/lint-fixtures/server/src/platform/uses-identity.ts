// Bad: platform/ importing identity/.
import { accountRule } from '../identity/account-rule';

export const platformRule = accountRule;
