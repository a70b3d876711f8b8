import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { describe, expect, inject, it } from 'vitest';
import { openPostgres } from '../src/db/client';
import { staffAccountJobs } from '../src/modules/recertification/jobs';
import { ACCESS_REQUEST_DIGEST_JOB } from '../src/modules/recertification/access-request-notices';
import { JobRunner } from '../src/platform/jobs';
import { testClock } from './helpers';
import { link, createLocation, createPerson, outboxMail, requestAccess } from './factories';

const DAY = 24 * 60 * 60 * 1000;

// Two instances (each its own pool, as separate processes) share one PostgreSQL database; PGlite has one process per
// folder, so this runs only with TEST_DATABASE_URL.
describe.runIf(inject('postgresTemplate'))('staff-account jobs on two instances (PostgreSQL)', () => {
  it('each reminder, suspension notice, request batch and digest is emailed once', async () => {
    const template = inject('postgresTemplate')!;
    const name = `portal_staff_jobs_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: template.url });
    await admin.connect();
    await admin.query(`create database ${name} template ${template.database}`);
    const url = new URL(template.url);
    url.pathname = `/${name}`;
    const instances = [openPostgres(url.toString(), 2), openPostgres(url.toString(), 2)] as const;
    try {
      const clock = testClock();
      const { db } = instances[0];
      const location = (await createLocation(db, { legalName: 'Shared Clinic' })).id;
      const a1 = await createPerson(db, { username: 'ann.admin' });
      const a2 = await createPerson(db, { username: 'bob.admin' });
      const due = await createPerson(db, { username: 'cy.user' });
      const lapsed = await createPerson(db, { username: 'dot.user' });
      const requester = await createPerson(db, { username: 'eve.user' });
      await link(db, a1.id, location, 'administrator', { certifiedUntil: new Date(clock.now().getTime() + 300 * DAY) });
      await link(db, a2.id, location, 'administrator', { certifiedUntil: new Date(clock.now().getTime() + 300 * DAY) });
      await link(db, due.id, location, 'user', { certifiedUntil: new Date(clock.now().getTime() + 30 * DAY - 60_000) });
      await link(db, lapsed.id, location, 'user', { certifiedUntil: new Date(clock.now().getTime() - 60_000) });
      await requestAccess(db, requester.id, location, { at: clock.now() });

      const log = pino({ level: 'silent' });
      const runners = instances.map(
        (instance) => new JobRunner(instance.db, staffAccountJobs({ now: clock.now }), log, clock.now),
      );
      const names = staffAccountJobs({ now: clock.now }).map((job) => job.name);
      // Every job on both instances at the same moment; then again, forced as a kick would be (the digest aside: a
      // forced digest is sent again by design, its once-a-week is the runner's claim).
      await Promise.all(runners.flatMap((runner) => names.map((job) => runner.runOnce(job))));
      await Promise.all(
        runners.flatMap((runner) =>
          names.filter((job) => job !== ACCESS_REQUEST_DIGEST_JOB).map((job) => runner.runOnce(job, { force: true })),
        ),
      );
      await Promise.all(runners.map((runner) => runner.runOnce(ACCESS_REQUEST_DIGEST_JOB)));

      const count = async (template: string) => (await outboxMail(db, template)).map((row) => row.recipient).sort();
      expect(await count('recertification-due')).toEqual([a1.email, a2.email]);
      expect(await count('location-access-suspended')).toEqual([lapsed.email]);
      const requests = await outboxMail(db, 'access-requests-pending');
      const byKind = (kind: string) =>
        requests
          .filter((row) => (row.data as { kind: string }).kind === kind)
          .map((row) => row.recipient)
          .sort();
      expect(byKind('new')).toEqual([a1.email, a2.email]);
      expect(byKind('digest')).toEqual([a1.email, a2.email]);
    } finally {
      for (const instance of instances) await instance.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
