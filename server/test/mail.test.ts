import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../src/config';
import { outbox } from '../src/db/schema';
import { JobRunner } from '../src/platform/jobs';
import { enqueueEmail, OUTBOX_JOB, outboxSenderJob, retryDelayMs } from '../src/platform/mail/outbox';
import { renderEmail } from '../src/emails';
import { buildTestApp, testConfig } from './helpers';
import { queuedEmails } from './factories';

interface Received {
  to: string[];
  raw: string;
}

/** A real SMTP server on a free port; recipients at refused.example are rejected with 550. */
async function startSmtpServer() {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@refused.example'))
        return callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    received,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const productionSettings = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(32), ENCRYPTION_KEY: 'a'.repeat(64) };

describe('email templates', () => {
  it('carry the product name, PUBLIC_URL links and escape their data', () => {
    const email = renderEmail('https://portal.example.gov', 'account-locked', {
      firstName: '<b>Ann</b> & co',
      unlockAt: '2026-11-23T12:00:00Z',
    });
    expect(email.subject).toBe('Medicare Provider Portal: Your account is locked');
    expect(email.text).toContain('https://portal.example.gov/login');
    expect(email.text).toContain('<b>Ann</b> & co');
    expect(email.html).toContain('&lt;b&gt;Ann&lt;/b&gt; &amp; co');
    expect(email.html).not.toContain('<b>Ann');
    expect(email.html).toContain('<a href="https://portal.example.gov/login">');
  });

  it('refuse data the template does not know', () => {
    expect(() =>
      renderEmail('https://x.example', 'password-changed', { firstName: 'A', password: 'secret' }),
    ).toThrow();
  });
});

describe('email outbox and sender', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let built: Awaited<ReturnType<typeof buildTestApp>>;
  let runner: JobRunner;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    built = await buildTestApp({ config: testConfig({ MAIL_VIEWER: 'true' }) });
    const job = outboxSenderJob({
      smtpUrl: smtp.url,
      from: 'Medicare Provider Portal <no-reply@portal.test>',
      publicUrl: 'https://portal.example.gov',
    });
    runner = new JobRunner(built.app.database.db, [job], pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await runner.stop();
    await built.app.close();
    await smtp.close();
  });

  it('queues an email only when the causing change commits', async () => {
    const { db } = built.app.database;
    await db
      .transaction(async (tx) => {
        await enqueueEmail(tx, { to: 'rolled@back.example', template: 'password-changed', data: { firstName: 'R' } });
        throw new Error('the change failed');
      })
      .catch(() => {});
    expect(await queuedEmails(db, { to: 'rolled@back.example' })).toHaveLength(0);
  });

  it('delivers queued email over SMTP, once, with plain and HTML parts', async () => {
    const { db } = built.app.database;
    const id = await db.transaction((tx) =>
      enqueueEmail(tx, { to: 'ann@clinic.example', template: 'password-changed', data: { firstName: 'Ann' } }),
    );
    expect(await runner.runOnce(OUTBOX_JOB, { force: true })).toBe(true);
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['ann@clinic.example']);
    expect(smtp.received[0]!.raw).toContain('Subject: Medicare Provider Portal: Your password was changed');
    expect(smtp.received[0]!.raw).toContain('text/plain');
    expect(smtp.received[0]!.raw).toContain('text/html');
    const [row] = await db.select().from(outbox).where(eq(outbox.id, id));
    expect(row!.sentAt).not.toBeNull();
    await runner.runOnce(OUTBOX_JOB, { force: true });
    expect(smtp.received).toHaveLength(1);
  });

  it('keeps a refused email for a retry with backoff', async () => {
    const { db } = built.app.database;
    const id = await db.transaction((tx) =>
      enqueueEmail(tx, { to: 'nobody@refused.example', template: 'password-changed', data: { firstName: 'N' } }),
    );
    await runner.runOnce(OUTBOX_JOB, { force: true });
    const [row] = await db
      .select({
        attempts: outbox.attempts,
        sentAt: outbox.sentAt,
        lastError: outbox.lastError,
        waitMs: sql<number>`(extract(epoch from (${outbox.nextAttemptAt} - now())) * 1000)::int`,
      })
      .from(outbox)
      .where(eq(outbox.id, id));
    expect(row).toMatchObject({ attempts: 1, sentAt: null });
    expect(row!.lastError).toMatch(/550/);
    expect(Number(row!.waitMs)).toBeGreaterThan(retryDelayMs(1) - 5_000);
    // Not due yet: the next run leaves it alone.
    await runner.runOnce(OUTBOX_JOB, { force: true });
    const [again] = await db.select({ attempts: outbox.attempts }).from(outbox).where(eq(outbox.id, id));
    expect(again!.attempts).toBe(1);
    expect(retryDelayMs(2)).toBe(2 * retryDelayMs(1));
  });

  it('with the STARTTLS-required URL production accepts, sends nothing to a relay that offers no STARTTLS', async () => {
    // This relay offers no STARTTLS: plain smtp:// (above) delivered to it in clear; `requireTLS=true` refuses it.
    const { db } = built.app.database;
    const tlsOnly = outboxSenderJob({
      smtpUrl: `${smtp.url}?requireTLS=true`,
      from: 'Medicare Provider Portal <no-reply@portal.test>',
      publicUrl: 'https://portal.example.gov',
    });
    expect(loadConfig({ ...productionSettings, SMTP_URL: `${smtp.url}?requireTLS=true` }).mail.smtpUrl).toBeDefined();
    const tlsRunner = new JobRunner(db, [tlsOnly], pino({ level: 'silent' }));
    const before = smtp.received.length;
    const id = await db.transaction((tx) =>
      enqueueEmail(tx, { to: 'tls@clinic.example', template: 'password-changed', data: { firstName: 'T' } }),
    );
    try {
      await tlsRunner.runOnce(OUTBOX_JOB, { force: true });
    } finally {
      await tlsRunner.stop();
    }
    expect(smtp.received).toHaveLength(before);
    const [row] = await db.select().from(outbox).where(eq(outbox.id, id));
    expect(row).toMatchObject({ attempts: 1, sentAt: null });
    expect(row!.lastError).toMatch(/STARTTLS/i);
  });

  it('shows queued email in the mail viewer, escaped, with both parts', async () => {
    const { db } = built.app.database;
    const id = await db.transaction((tx) =>
      enqueueEmail(tx, {
        to: 'viewer@clinic.example',
        template: 'password-changed',
        data: { firstName: '<script>x</script>' },
      }),
    );
    const list = await built.app.inject({ method: 'GET', url: '/dev/mail' });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-type']).toContain('text/html');
    expect(list.body).toContain(`/dev/mail/${id}`);
    const view = await built.app.inject({ method: 'GET', url: `/dev/mail/${id}` });
    expect(view.statusCode).toBe(200);
    expect(view.body).toContain('Plain text part');
    expect(view.body).toContain('HTML part');
    expect(view.body).not.toContain('<script>');
    expect(view.body).toContain('&lt;script&gt;');
    expect(view.body).toContain('http://localhost:3000/login');
    expect(
      (await built.app.inject({ method: 'GET', url: '/dev/mail/00000000-0000-4000-8000-000000000000' })).statusCode,
    ).toBe(404);
    expect(built.logLines.some((l) => l.includes('MAIL_VIEWER is on'))).toBe(true);
  });
});

describe('mail viewer setting', () => {
  it('is off by default', async () => {
    const { app } = await buildTestApp();
    const response = await app.inject({ method: 'GET', url: '/dev/mail' });
    // Without a web build the SPA fallback answers 503; with one it would be the SPA. Never the viewer.
    expect(response.statusCode).not.toBe(200);
    expect(response.body).not.toContain('Mail viewer');
    await app.close();
  });

  it('is a configuration error in production', () => {
    const production = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: 'a'.repeat(64) };
    expect(() => loadConfig({ ...production, MAIL_VIEWER: 'true' })).toThrow(
      /MAIL_VIEWER must not be true when NODE_ENV=production/,
    );
    expect(() => loadConfig(production)).not.toThrow();
  });
});
