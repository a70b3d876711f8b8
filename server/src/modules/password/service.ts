import { randomInt } from 'node:crypto';
import { passwordProblems } from '../../identity/passwords/policy';

/** The password generator behind `POST /api/password/generate/get` (routes.ts). */

/**
 * Letters and digits without look-alikes (0/O/o, 1/l/I, 5/S, 2/Z): a user who copies it by hand cannot misread it.
 * 20 characters from these 52 give about 114 bits of entropy, far above what guessing can reach, with no word list
 * to ship or load (docs/decisions/0017).
 */
export const GENERATOR_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRTUVWXY346789';
export const GENERATED_LENGTH = 20;

export function generatePassword(): string {
  for (;;) {
    let password = '';
    for (let i = 0; i < GENERATED_LENGTH; i++) password += GENERATOR_ALPHABET[randomInt(GENERATOR_ALPHABET.length)];
    // Practically always passes; the check keeps "a generated password passes the policy" true by construction.
    if (passwordProblems(password, []).length === 0) return password;
  }
}
