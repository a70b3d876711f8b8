// The machine's own ceiling of logins per second, measured in the same run as the figure it bounds (the machine is
// shared; its speed changes by the minute): argon2id verifications with the configured cost, `concurrency` at once and
// nothing else of the portal running. Used by bench/login.ts and the login-ratio gate (bench/gates/load.ts).
import { performance } from 'node:perf_hooks';
import type { PasswordHasher } from '../../server/src/platform/password-hashing';

const PASSWORD = 'bench password long enough for the policy';

export interface Argon2Ceiling {
  /** CPU time of one verification alone (process CPU: the hashing threads included), ms. */
  verifyCpuMs: number;
  /** `concurrency × samples` verifications at once, per second of wall time: no login rate can exceed it. */
  verifiesPerSecond: number;
}

export async function argon2Ceiling(
  hasher: Pick<PasswordHasher, 'hash' | 'verify'>,
  concurrency: number,
  samples = 20,
): Promise<Argon2Ceiling> {
  const hash = await hasher.hash(PASSWORD);
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < samples; i++) await hasher.verify(hash, PASSWORD);
  const cpu = process.cpuUsage(cpuBefore);
  const verifyCpuMs = (cpu.user + cpu.system) / 1000 / samples;
  // They share the caches and the memory bus, so each costs more CPU than one alone.
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency * samples }, () => hasher.verify(hash, PASSWORD)));
  const verifiesPerSecond = (concurrency * samples * 1000) / (performance.now() - started);
  return { verifyCpuMs, verifiesPerSecond };
}
