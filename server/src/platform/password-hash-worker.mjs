// Runs in the password hasher's worker threads (server/src/platform/password-hashing.ts): the synchronous argon2 calls
// run on this thread, whose scheduling priority piscina lowered (`niceIncrement`), not on libuv's shared pool.
// Plain JavaScript so that Node loads it as it is in development, in tests and beside the built server.
import { hashSync, verifySync } from '@node-rs/argon2';

export function hash({ password, options }) {
  return hashSync(password, options);
}

export function verify({ storedHash, password }) {
  try {
    return verifySync(storedHash, password);
  } catch {
    return false; // a malformed stored hash never matches
  }
}
