import type { Executor } from './db-executor';

export const tableName = 'users';
export const runOn = (db: Executor) => db.run(tableName);
