import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@portal/contracts/auth';
import { and, eq, isNull } from 'drizzle-orm';
import { mfaRecoveryCodes } from '../../db/schema';
import type { DbExecutor } from '../../platform/db-executor';
import { keyedHash } from '../../platform/encryption';

/** Crockford-like alphabet without 0/O, 1/I/L and U: easy to read from paper. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 4;
const GROUP_LENGTH = 4;
const PURPOSE = 'mfa-recovery-code';

/** 16 characters of a 30-letter alphabet (78 bits), shown as `XXXX-XXXX-XXXX-XXXX`. */
function newRecoveryCode(): string {
  const groups: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    let group = '';
    for (let i = 0; i < GROUP_LENGTH; i++) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join('-');
}

/** What the user typed, without dashes, spaces or case. */
export function normaliseRecoveryCode(input: string): string {
  return input.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

export function looksLikeRecoveryCode(input: string): boolean {
  return normaliseRecoveryCode(input).length === GROUPS * GROUP_LENGTH;
}

/** Replaces the user's recovery codes with 10 new ones (stored as keyed hashes) and answers them, to show once. */
export async function issueRecoveryCodes(db: DbExecutor, encryptionKey: string, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  await db
    .insert(mfaRecoveryCodes)
    .values(
      codes.map((code) => ({ userId, codeHash: keyedHash(encryptionKey, PURPOSE, normaliseRecoveryCode(code)) })),
    );
  return codes;
}

/** Uses up a recovery code: true once per code (the update is atomic, so two simultaneous uses cannot both pass). */
export async function redeemRecoveryCode(
  db: DbExecutor,
  encryptionKey: string,
  userId: string,
  input: string,
  now: Date,
): Promise<boolean> {
  const codeHash = keyedHash(encryptionKey, PURPOSE, normaliseRecoveryCode(input));
  const used = await db
    .update(mfaRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(mfaRecoveryCodes.userId, userId),
        eq(mfaRecoveryCodes.codeHash, codeHash),
        isNull(mfaRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: mfaRecoveryCodes.id });
  return used.length === 1;
}
