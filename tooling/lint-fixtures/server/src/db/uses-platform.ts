// Bad: db/ importing platform/ beyond db-executor.ts (which is allowed).
import { plumbing } from '../platform/plumbing';
import type { Executor } from '../platform/db-executor';

export const dbPlumbing = (db: Executor) => [plumbing(), db];
