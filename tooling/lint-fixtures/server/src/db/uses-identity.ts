// Bad: db/ importing identity/.
import { accountRule } from '../identity/account-rule';

export const dbRule = accountRule;
