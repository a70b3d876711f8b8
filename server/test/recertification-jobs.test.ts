import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/client';
import { accessRequests, auditEvents, providerLocations } from '../src/db/schema';
import { JobRunner } from '../src/platform/jobs';
import {
  RECERTIFICATION_REMINDER_JOB,
  RECERTIFICATION_SUSPENSION_JOB,
  staffAccountJobs,
} from '../src/modules/recertification/jobs';
import {
  ACCESS_REQUEST_BATCH_JOB,
  ACCESS_REQUEST_DIGEST_JOB,
} from '../src/modules/recertification/access-request-notices';
import { createTestDatabase, testClock, type TestClock } from './helpers';
import { clearOutbox, link, linkOf, createLocation, createPerson, outboxMail, requestAccess } from './factories';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const MINUTE = 60 * 1000;
const log = pino({ level: 'silent' });

/** Each test gets its own database, so counts of emails are exact. */
describe('staff-account jobs (docs/decisions/0041), on the injectable clock', () => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let runner: JobRunner;
  const databases: DatabaseHandle[] = [];
  beforeEach(async () => {
    database = await createTestDatabase();
    databases.push(database);
    clock = testClock();
    runner = new JobRunner(database.db, staffAccountJobs({ now: clock.now }), log, clock.now);
  });
  afterAll(async () => {
    for (const d of databases) await d.close();
  });
  const run = (job: string) => runner.runOnce(job, { force: true });
  const recipients = (rows: { recipient: string }[]) => rows.map((row) => row.recipient).sort();

  it('reminds each administrator once at 45, 30, 15, 7 and 1 days; a run again sends nothing new', async () => {
    const { db } = database;
    const location = (await createLocation(db, { legalName: 'Harbor Clinic' })).id;
    const a1 = await createPerson(db, { username: 'ann.admin', firstName: 'ann' });
    const a2 = await createPerson(db, { username: 'bob.admin', firstName: 'bob' });
    const person = await createPerson(db, { username: 'cy.user', firstName: 'cy' });
    const due = new Date(clock.now().getTime() + 50 * DAY);
    await link(db, a1.id, location, 'administrator', { certifiedUntil: new Date(clock.now().getTime() + 300 * DAY) });
    await link(db, a2.id, location, 'administrator', { certifiedUntil: new Date(clock.now().getTime() + 300 * DAY) });
    await link(db, person.id, location, 'user', { certifiedUntil: due });

    expect(await run(RECERTIFICATION_REMINDER_JOB)).toBe(true);
    expect(await outboxMail(db)).toEqual([]);

    for (const days of [45, 30, 15, 7, 1]) {
      clock.advance(due.getTime() - days * DAY + HOUR - clock.now().getTime());
      await run(RECERTIFICATION_REMINDER_JOB);
      const sent = await outboxMail(db, 'recertification-due');
      expect(recipients(sent), `${days} days`).toEqual([a1.email, a2.email]);
      expect(sent[0]!.data).toMatchObject({ people: [{ name: 'cy Tester', daysLeft: days }] });
      await clearOutbox(db);
      await run(RECERTIFICATION_REMINDER_JOB);
      clock.advance(2 * HOUR);
      await run(RECERTIFICATION_REMINDER_JOB);
      expect(await outboxMail(db), `again at ${days} days`).toEqual([]);
      expect((await linkOf(db, person.id, location))!.reminderDaysSent).toBe(days);
    }
  });

  it('a link first seen 10 days before gets one reminder (15), then the 7-day one; one email per administrator for all their locations, never about themselves', async () => {
    const { db } = database;
    const [l1, l2] = [
      (await createLocation(db, { legalName: 'North Office' })).id,
      (await createLocation(db, { legalName: 'South Office' })).id,
    ];
    const admin = await createPerson(db, { username: 'dee.admin', firstName: 'dee' });
    const other = await createPerson(db, { username: 'eve.admin', firstName: 'eve' });
    const p1 = await createPerson(db, { username: 'fay.user', firstName: 'fay' });
    const p2 = await createPerson(db, { username: 'gil.user', firstName: 'gil' });
    const at = (days: number) => new Date(clock.now().getTime() + days * DAY);
    await link(db, admin.id, l1, 'administrator', { certifiedUntil: at(10) });
    await link(db, admin.id, l2, 'administrator', { certifiedUntil: at(300) });
    await link(db, other.id, l1, 'administrator', { certifiedUntil: at(300) });
    await link(db, p1.id, l1, 'user', { certifiedUntil: at(10) });
    await link(db, p2.id, l2, 'user', { certifiedUntil: at(10) });

    await run(RECERTIFICATION_REMINDER_JOB);
    const sent = await outboxMail(db, 'recertification-due');
    expect(recipients(sent)).toEqual([admin.email, other.email]);
    const toAdmin = sent.find((row) => row.recipient === admin.email)!.data as { people: { name: string }[] };
    expect(toAdmin.people.map((p) => p.name).sort()).toEqual(['fay Tester', 'gil Tester']);
    const toOther = sent.find((row) => row.recipient === other.email)!.data as { people: { name: string }[] };
    expect(toOther.people.map((p) => p.name).sort()).toEqual(['dee Tester', 'fay Tester']);
    expect((await linkOf(db, p1.id, l1))!.reminderDaysSent).toBe(15);

    await clearOutbox(db);
    clock.advance(3 * DAY + HOUR);
    await run(RECERTIFICATION_REMINDER_JOB);
    expect((await outboxMail(db, 'recertification-due')).length).toBe(2);
  });

  it('suspends a link past its date and tells the person once; a location left without a current administrator is suspended', async () => {
    const { db } = database;
    const kept = (await createLocation(db, { legalName: 'Kept Clinic' })).id;
    const lost = (await createLocation(db, { legalName: 'Lost Clinic' })).id;
    const admin = await createPerson(db, { username: 'hal.admin', firstName: 'hal' });
    const soleAdmin = await createPerson(db, { username: 'ida.admin', firstName: 'ida' });
    const person = await createPerson(db, { username: 'jo.user', firstName: 'jo' });
    const at = (days: number) => new Date(clock.now().getTime() + days * DAY);
    await link(db, admin.id, kept, 'administrator', { certifiedUntil: at(300) });
    await link(db, person.id, kept, 'user', { certifiedUntil: at(2) });
    await link(db, soleAdmin.id, lost, 'administrator', { certifiedUntil: at(3) });
    await link(db, person.id, lost, 'user', { certifiedUntil: at(300) });

    await run(RECERTIFICATION_SUSPENSION_JOB);
    expect((await linkOf(db, person.id, kept))!.status).toBe('active');

    clock.advance(2 * DAY + 1);
    await run(RECERTIFICATION_SUSPENSION_JOB);
    expect((await linkOf(db, person.id, kept))!.status).toBe('suspended');
    expect((await linkOf(db, person.id, lost))!.status).toBe('active');
    const told = await outboxMail(db, 'location-access-suspended');
    expect(recipients(told)).toEqual([person.email]);
    expect(told[0]!.data).toMatchObject({ locations: [expect.stringContaining('Kept Clinic')] });
    await run(RECERTIFICATION_SUSPENSION_JOB);
    expect((await outboxMail(db)).length).toBe(1);
    const [keptRow] = await db.select().from(providerLocations).where(eq(providerLocations.id, kept));
    expect(keptRow!.accessSuspendedAt).toBeNull();

    clock.advance(DAY);
    await run(RECERTIFICATION_SUSPENSION_JOB);
    expect((await linkOf(db, soleAdmin.id, lost))!.status).toBe('suspended');
    const [lostRow] = await db.select().from(providerLocations).where(eq(providerLocations.id, lost));
    expect(lostRow!.accessSuspendedAt).toEqual(clock.now());
    const events = await db.select().from(auditEvents).where(eq(auditEvents.target, lost));
    expect(events.map((e) => e.action)).toEqual(['location.access-suspended']);
    const lapsed = await db.select().from(auditEvents).where(eq(auditEvents.action, 'recertification.lapsed'));
    expect(lapsed.map((e) => e.target).sort()).toEqual([person.id, soleAdmin.id].sort());
  });

  it('the batch emails each administrator once about the new requests of their locations, then only newer ones', async () => {
    const { db } = database;
    const [l1, l2] = [
      (await createLocation(db, { legalName: 'East Office' })).id,
      (await createLocation(db, { legalName: 'West Office' })).id,
    ];
    const a1 = await createPerson(db, { username: 'kim.admin', firstName: 'kim' });
    const a2 = await createPerson(db, { username: 'lou.admin', firstName: 'lou' });
    const stale = await createPerson(db, { username: 'max.admin', firstName: 'max' });
    await link(db, a1.id, l1, 'administrator', { certifiedUntil: new Date(clock.now().getTime() + 300 * DAY) });
    await link(db, a1.id, l2, 'administrator', { certifiedUntil: new Date(clock.now().getTime() + 300 * DAY) });
    await link(db, a2.id, l1, 'administrator', { certifiedUntil: new Date(clock.now().getTime() + 300 * DAY) });
    // Past its date: not a current administrator, so not told.
    await link(db, stale.id, l1, 'administrator', { certifiedUntil: new Date(clock.now().getTime() - DAY) });
    const r1 = await createPerson(db, { username: 'ned.user', firstName: 'ned' });
    const r2 = await createPerson(db, { username: 'ola.user', firstName: 'ola' });
    const unverified = await createPerson(db, { username: 'pia.user', firstName: 'pia', status: 'pending' });
    await requestAccess(db, r1.id, l1, { at: clock.now() });
    await requestAccess(db, r2.id, l1, { at: clock.now() });
    await requestAccess(db, r2.id, l2, { at: clock.now() });
    await requestAccess(db, unverified.id, l1, { at: clock.now() });

    await run(ACCESS_REQUEST_BATCH_JOB);
    const sent = await outboxMail(db, 'access-requests-pending');
    expect(recipients(sent)).toEqual([a1.email, a2.email]);
    const listed = (email: string) =>
      (sent.find((row) => row.recipient === email)!.data as { requests: { username: string; location: string }[] })
        .requests;
    expect(listed(a1.email)).toHaveLength(3);
    expect(listed(a2.email).map((r) => r.username)).toEqual(['ned.user', 'ola.user']);
    expect(sent.every((row) => (row.data as { kind: string }).kind === 'new')).toBe(true);
    const announced = await db.select().from(accessRequests);
    expect(announced.filter((r) => r.notifiedAt).length).toBe(3);

    await clearOutbox(db);
    await run(ACCESS_REQUEST_BATCH_JOB);
    expect(await outboxMail(db)).toEqual([]);

    const r3 = await createPerson(db, { username: 'quinn.user', firstName: 'quinn' });
    clock.advance(HOUR);
    await requestAccess(db, r3.id, l2, { at: clock.now() });
    expect(await runner.runOnce(ACCESS_REQUEST_BATCH_JOB)).toBe(true);
    const next = await outboxMail(db, 'access-requests-pending');
    expect(recipients(next)).toEqual([a1.email]);
    expect(next[0]!.data).toMatchObject({ requests: [{ username: 'quinn.user' }] });
  });

  it('a new request is announced within minutes, at most one email per administrator per 5 minutes', async () => {
    const { db } = database;
    const location = (await createLocation(db, { legalName: 'North Office' })).id;
    const admin = await createPerson(db, { username: 'rae.admin', firstName: 'rae' });
    await link(db, admin.id, location, 'administrator', {
      certifiedUntil: new Date(clock.now().getTime() + 300 * DAY),
    });
    const [first, second] = [
      await createPerson(db, { username: 'sam.user', firstName: 'sam' }),
      await createPerson(db, { username: 'tao.user', firstName: 'tao' }),
    ];
    // The runner's own schedule (no forced run): the batch's interval is what decides.
    expect(await runner.runOnce(ACCESS_REQUEST_BATCH_JOB)).toBe(true);
    await requestAccess(db, first.id, location, { at: clock.now() });
    clock.advance(5 * MINUTE);
    expect(await runner.runOnce(ACCESS_REQUEST_BATCH_JOB)).toBe(true);
    const sent = await outboxMail(db, 'access-requests-pending');
    expect(recipients(sent)).toEqual([admin.email]);
    expect(sent[0]!.data).toMatchObject({ kind: 'new', requests: [{ username: 'sam.user' }] });

    // A second request a minute later waits for the next batch: no second email within the 5 minutes.
    await clearOutbox(db);
    clock.advance(MINUTE);
    await requestAccess(db, second.id, location, { at: clock.now() });
    expect(await runner.runOnce(ACCESS_REQUEST_BATCH_JOB)).toBe(false);
    expect(await outboxMail(db)).toEqual([]);
    clock.advance(4 * MINUTE);
    expect(await runner.runOnce(ACCESS_REQUEST_BATCH_JOB)).toBe(true);
    expect((await outboxMail(db, 'access-requests-pending'))[0]!.data).toMatchObject({
      requests: [{ username: 'tao.user' }],
    });
  });

  it('the weekly digest lists the requests still pending, once a week across runs', async () => {
    const { db } = database;
    const location = (await createLocation(db, { legalName: 'Digest Clinic' })).id;
    const admin = await createPerson(db, { username: 'ray.admin', firstName: 'ray' });
    await link(db, admin.id, location, 'administrator', {
      certifiedUntil: new Date(clock.now().getTime() + 300 * DAY),
    });
    const requester = await createPerson(db, { username: 'sam.user', firstName: 'sam' });
    const decided = await createPerson(db, { username: 'tia.user', firstName: 'tia' });
    await requestAccess(db, requester.id, location, { at: clock.now() });
    const { id: decidedId } = await requestAccess(db, decided.id, location, { at: clock.now() });
    await db.update(accessRequests).set({ status: 'denied' }).where(eq(accessRequests.id, decidedId));

    expect(await runner.runOnce(ACCESS_REQUEST_DIGEST_JOB)).toBe(true);
    const sent = await outboxMail(db, 'access-requests-pending');
    expect(recipients(sent)).toEqual([admin.email]);
    expect(sent[0]!.data).toMatchObject({ kind: 'digest', requests: [{ username: 'sam.user' }] });
    await clearOutbox(db);

    clock.advance(6 * DAY);
    expect(await runner.runOnce(ACCESS_REQUEST_DIGEST_JOB)).toBe(false);
    clock.advance(DAY);
    expect(await runner.runOnce(ACCESS_REQUEST_DIGEST_JOB)).toBe(true);
    expect(recipients(await outboxMail(db, 'access-requests-pending'))).toEqual([admin.email]);
  });
});
