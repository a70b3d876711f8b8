import { chmodSync, mkdirSync } from 'node:fs';

/**
 * The data folder holds the embedded database, generated secrets and the CMS token handover: readable by the
 * portal's user only. Creates it with mode 0700 and narrows an existing one (installs from before this rule).
 */
export function preparePrivateDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Everything the process creates from now on is private to its user: folders 0700, files 0600. */
export function restrictNewFilesToOwner(): void {
  process.umask(0o077);
}
