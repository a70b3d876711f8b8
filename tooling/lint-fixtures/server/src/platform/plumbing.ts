// Good: platform/ on top of db/.
import { tableName } from '../db/tables';

export const plumbing = () => tableName;
