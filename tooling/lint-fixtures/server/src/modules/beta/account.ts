// Good: a module on top of identity/.
import { accountRule } from '../../identity/account-rule';

export const betaAccount = () => accountRule();
