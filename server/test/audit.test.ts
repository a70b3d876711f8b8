import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../src/db/client';
import { auditEvents } from '../src/db/schema';
import { recordAudit, type AuditDetails } from '../src/platform/audit';
import { createTestDatabase } from './helpers';

describe('audit writer', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('records an event with its allowed details', async () => {
    await recordAudit(database.db, {
      actor: null,
      action: 'login',
      target: 'jdoe',
      outcome: 'failure',
      ip: '203.0.113.9',
      details: { reason: 'bad_password', method: 'password', count: 3 },
    });
    const [row] = await database.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.target} = 'jdoe'`);
    expect(row).toMatchObject({
      action: 'login',
      outcome: 'failure',
      ip: '203.0.113.9',
      details: { reason: 'bad_password', method: 'password', count: 3 },
    });
  });

  it('refuses a detail key outside the closed list (a password, code, answer or DOB) and writes nothing', async () => {
    for (const details of [
      { password: 'hunter2hunter2hunter2' },
      { code: '123456' },
      { answer: 'Fluffy' },
      { dob: '1970-01-01' },
      { tin: '123456789' },
    ]) {
      const event = {
        actor: 'system',
        action: 'refused-write',
        outcome: 'success' as const,
        details: details as AuditDetails,
      };
      await expect(recordAudit(database.db, event)).rejects.toThrow();
    }
    // The compiler refuses such a key too.
    // @ts-expect-error `password` is not an audit detail
    const typed: AuditDetails = { password: 'x' };
    expect(typed).toBeDefined();
    const rows = await database.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'refused-write'`);
    expect(rows).toHaveLength(0);
  });

  it('masks TIN-like digits in the target and free-text fields', async () => {
    await recordAudit(database.db, {
      actor: 'system',
      action: 'tin-check',
      target: 'tin 12-3456789',
      outcome: 'failure',
      details: { reason: 'x123456789' },
    });
    const [row] = await database.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'tin-check'`);
    expect(row!.target).toBe('tin *****6789');
    expect(JSON.stringify(row!.details)).not.toMatch(/\d{9}/);
    expect(row!.details).toEqual({ reason: 'x*****6789' });
  });

  it('keeps a user id whole even when it holds nine digits in a row', async () => {
    const userId = '12345678-9012-4345-8678-901234567890';
    await recordAudit(database.db, { actor: userId, action: 'uuid-check', target: userId, outcome: 'success' });
    const [row] = await database.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'uuid-check'`);
    expect(row).toMatchObject({ actor: userId, target: userId });
  });

  it('keeps an operator id whole even when its digits run nine in a row across a dash', async () => {
    // `04145-1792` reads like a TIN: the help desk's actor once lost it, and the person's page then answered 500.
    const actor = 'operator:f2804145-1792-403a-bdb8-f2b5a1c3d4e5';
    await recordAudit(database.db, { actor, action: 'operator-check', target: actor, outcome: 'success' });
    const [row] = await database.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'operator-check'`);
    expect(row).toMatchObject({ actor, target: actor });
  });

  it("keeps an unknown username's fingerprint whole even when it holds nine digits in a row", async () => {
    const target = 'unknown:0123456789abcdef';
    await recordAudit(database.db, { actor: null, action: 'fingerprint-check', target, outcome: 'failure' });
    const [row] = await database.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'fingerprint-check'`);
    expect(row?.target).toBe(target);
  });

  it("writes in the caller's transaction: a rolled-back change leaves no event", async () => {
    await database.db
      .transaction(async (tx) => {
        await recordAudit(tx, { actor: 'system', action: 'rolled-back', outcome: 'success' });
        throw new Error('change failed');
      })
      .catch(() => {});
    const rows = await database.db
      .select()
      .from(auditEvents)
      .where(sql`${auditEvents.action} = 'rolled-back'`);
    expect(rows).toHaveLength(0);
  });
});
