import { FIND_ADMIN_CONTACT_PATH } from '@portal/contracts/find-admin';
import { FIND_ADMIN_PATH } from '@portal/contracts/find-admin';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoData } from '../src/db/demo-data';
import { auditEvents, providerLocations } from '../src/db/schema';
import { renderEmail } from '../src/emails';
import { issueValidationToken } from '../src/modules/registration/validation-token';
import { buildTestApp, portalHeaders, testConfig } from './helpers';
import { createAccount, newIp, link, queuedEmails } from './factories';

const HOUR = 60 * 60 * 1000;

const visitor = {
  name: '  Sam   Office ',
  email: 'sam.office@clinic.example.com',
  phone: '(410) 555-0199',
  message: 'Please add me to the location: I joined the billing team on Monday.',
};

/** "Ask this administrator to contact me" (docs/requirements/portal.md#find-my-administrator). */
describe('find my administrator: the contact relay', () => {
  let now = Date.parse('2026-11-23T09:00:00Z');
  let app: FastifyInstance;
  let locations: (typeof providerLocations.$inferSelect)[];
  const adminEmails: string[] = [];

  beforeAll(async () => {
    ({ app } = await buildTestApp({
      clock: () => new Date(now),
      config: testConfig({
        FIND_ADMIN_CONTACT_PER_CLIENT_PER_DAY: '3',
        FIND_ADMIN_CONTACT_PER_LOCATION_PER_DAY: '4',
      }),
    }));
    await seedDemoData(app.database.db, { locations: 8, today: '2026-11-23' });
    locations = await app.database.db.select().from(providerLocations).orderBy(providerLocations.npi);
    // Locations 0 to 3 get two administrators each (and a plain user who must never be emailed).
    for (const [i, location] of locations.slice(0, 4).entries()) {
      for (const n of [1, 2]) {
        const admin = await createAccount(app, `relay.admin${i}${n}`, {
          firstName: `Ada${n}`,
          lastName: `Lovelace${i}`,
        });
        adminEmails.push(admin.email);
        await link(app, admin.id, location.id, 'administrator');
      }
      const user = await createAccount(app, `relay.user${i}`);
      await link(app, user.id, location.id, 'user');
    }
  });
  afterAll(() => app.close());

  function post(url: string, payload: object, { ip = newIp(), headers = portalHeaders } = {}) {
    return app.inject({ method: 'POST', url, payload, remoteAddress: ip, headers });
  }

  async function lookUp(location: typeof providerLocations.$inferSelect, ip?: string) {
    const res = await post(FIND_ADMIN_PATH, { npi: location.npi, ptan: location.ptan, tin: location.tin }, { ip });
    expect(res.statusCode).toBe(200);
    return res;
  }

  const relayed = (locationAdmins: string[]) =>
    queuedEmails(app, { template: 'find-admin-contact-request' }).then((rows) =>
      rows.filter((r) => locationAdmins.includes(r.recipient)),
    );

  it("emails the location's administrators the visitor's request; no address appears in any answer", async () => {
    const ip = newIp();
    const lookup = await lookUp(locations[0]!, ip);
    const { contactToken, administrators } = lookup.json().data;
    expect(administrators).toHaveLength(2);
    expect(contactToken).toEqual(expect.any(String));
    const res = await post(FIND_ADMIN_CONTACT_PATH, { contactToken, ...visitor }, { ip });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { sent: true } });
    for (const body of [lookup.body, res.body, contactToken as string]) {
      for (const email of adminEmails) expect(body).not.toContain(email);
      expect(body).not.toMatch(/relay\.admin/);
    }
    const mails = await relayed(adminEmails.slice(0, 2));
    expect(mails.map((m) => m.recipient).sort()).toEqual(adminEmails.slice(0, 2).sort());
    const email = renderEmail('http://localhost:3000', mails[0]!.template, mails[0]!.data);
    expect(email.text).toContain('Name: Sam Office');
    expect(email.text).toContain('Email: sam.office@clinic.example.com');
    expect(email.text).toContain('Phone: 410-555-0199');
    expect(email.text).toContain(visitor.message);
    expect(email.text).toContain(locations[0]!.legalName);
  });

  it("is audited with the location and the count, never the visitor's words", async () => {
    const [event] = await app.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'location.find-admin-contact'), eq(auditEvents.outcome, 'success')));
    expect(event).toMatchObject({ target: locations[0]!.id, details: expect.objectContaining({ count: 2 }) });
    const all = JSON.stringify(
      await app.database.db.select().from(auditEvents).where(eq(auditEvents.action, 'location.find-admin-contact')),
    );
    expect(all).not.toContain('sam.office');
    expect(all).not.toContain('billing team');
    expect(all).not.toContain('5550199');
  });

  it('keeps the non-revealing answers: no match is still the one 404, a location without administrators no handle', async () => {
    const noMatch = await post(FIND_ADMIN_PATH, { npi: locations[5]!.npi, ptan: 'ZZ99999', tin: locations[5]!.tin });
    expect(noMatch.statusCode).toBe(404);
    expect(noMatch.json()).toEqual({ errorMessage: 'Find_Admin_No_Match' });
    const empty = await lookUp(locations[6]!);
    expect(empty.json()).toEqual({ data: { locationName: expect.any(String), administrators: [] } });
  });

  it('refuses an altered, expired or registration token with 400 Find_Admin_Contact_Expired', async () => {
    const { contactToken } = (await lookUp(locations[1]!)).json().data as { contactToken: string };
    const otherLocation = contactToken.replace(locations[1]!.id, locations[2]!.id);
    const registrationToken = issueValidationToken(app.secrets.sessionSecret, locations[1]!.id, new Date(now + HOUR));
    for (const token of [otherLocation, registrationToken, `${contactToken}x`]) {
      const res = await post(FIND_ADMIN_CONTACT_PATH, { ...visitor, contactToken: token });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ errorMessage: 'Find_Admin_Contact_Expired' });
    }
    now += 31 * 60 * 1000;
    const expired = await post(FIND_ADMIN_CONTACT_PATH, { ...visitor, contactToken });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ errorMessage: 'Find_Admin_Contact_Expired' });
    expect(await relayed(adminEmails.slice(2, 4))).toHaveLength(0);
  });

  it('answers 400 with a code per field for bad input, and sends nothing', async () => {
    const { contactToken } = (await lookUp(locations[1]!)).json().data as { contactToken: string };
    const res = await post(FIND_ADMIN_CONTACT_PATH, {
      contactToken,
      name: ' ',
      email: 'sam@',
      phone: '12345',
      message: 'x'.repeat(501),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      errorMessage: 'Validation_Failed',
      fieldErrors: {
        name: ['Contact_Name_Invalid'],
        email: ['Email_Invalid'],
        phone: ['Phone_Invalid'],
        message: ['Contact_Message_Invalid'],
      },
    });
    for (const payload of [
      { contactToken, ...visitor, message: 'nul \u0000 inside' },
      { contactToken, ...visitor, extra: 'field' },
      { ...visitor },
    ])
      expect((await post(FIND_ADMIN_CONTACT_PATH, payload)).statusCode).toBe(400);
    expect(await relayed(adminEmails.slice(2, 4))).toHaveLength(0);
  });

  it('refuses a call without the CSRF header', async () => {
    const { contactToken } = (await lookUp(locations[1]!)).json().data as { contactToken: string };
    const res = await post(
      FIND_ADMIN_CONTACT_PATH,
      { contactToken, ...visitor },
      { headers: {} as typeof portalHeaders },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ errorMessage: 'Csrf_Rejected' });
    expect(await relayed(adminEmails.slice(2, 4))).toHaveLength(0);
  });

  it('is limited per client per day: the 4th request from one address gets 429 with Retry-After', async () => {
    const ip = newIp();
    const tokens: string[] = [];
    for (const location of locations.slice(0, 3)) tokens.push((await lookUp(location, ip)).json().data.contactToken);
    for (const contactToken of tokens)
      expect((await post(FIND_ADMIN_CONTACT_PATH, { contactToken, ...visitor }, { ip })).statusCode).toBe(200);
    const over = await post(FIND_ADMIN_CONTACT_PATH, { contactToken: tokens[2], ...visitor }, { ip });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({ errorMessage: 'Too_Many_Requests' });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(20 * 3600);
    expect(await relayed(adminEmails.slice(4, 6))).toHaveLength(2);
    // Another address may still ask.
    expect((await post(FIND_ADMIN_CONTACT_PATH, { contactToken: tokens[2], ...visitor })).statusCode).toBe(200);
  });

  it('is limited per location per day, whichever addresses ask; audited as refused', async () => {
    const { contactToken } = (await lookUp(locations[3]!)).json().data as { contactToken: string };
    for (let i = 0; i < 4; i++)
      expect((await post(FIND_ADMIN_CONTACT_PATH, { contactToken, ...visitor })).statusCode).toBe(200);
    const over = await post(FIND_ADMIN_CONTACT_PATH, { contactToken, ...visitor });
    expect(over.statusCode).toBe(429);
    expect(await relayed(adminEmails.slice(6, 8))).toHaveLength(8);
    const refused = await app.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'location.find-admin-contact'), eq(auditEvents.target, locations[3]!.id)));
    expect(refused.filter((e) => e.outcome === 'failure').map((e) => e.details)).toEqual([
      expect.objectContaining({ reason: 'location_limit' }),
    ]);
  });
});

/**
 * The relay under attack (docs/requirements/portal.md#find-my-administrator): a sender gets a share of a location's
 * daily cap, and the visitor's words reach the administrators fenced and link-free. The settings' defaults (5 per
 * client, 10 per location).
 */
describe('find my administrator: the contact relay against a hostile visitor', () => {
  const now = Date.parse('2026-11-23T09:00:00Z');
  let app: FastifyInstance;
  let locations: (typeof providerLocations.$inferSelect)[];
  const adminEmails: string[] = [];

  beforeAll(async () => {
    ({ app } = await buildTestApp({ clock: () => new Date(now), config: testConfig() }));
    await seedDemoData(app.database.db, { locations: 3, today: '2026-11-23' });
    locations = await app.database.db.select().from(providerLocations).orderBy(providerLocations.npi);
    // One administrator for each of the first two locations: the limits, then the email, each on its own location.
    for (const [i, location] of locations.slice(0, 2).entries()) {
      const admin = await createAccount(app, `hostile.relay.admin${i}`, { firstName: 'Grace', lastName: 'Hopper' });
      adminEmails.push(admin.email);
      await link(app, admin.id, location.id, 'administrator');
    }
  });
  afterAll(() => app.close());

  async function ask(ip: string, message = visitor.message, location = locations[0]!) {
    const lookup = await app.inject({
      method: 'POST',
      url: FIND_ADMIN_PATH,
      payload: { npi: location.npi, ptan: location.ptan, tin: location.tin },
      remoteAddress: ip,
      headers: portalHeaders,
    });
    const { contactToken } = lookup.json().data as { contactToken: string };
    return app.inject({
      method: 'POST',
      url: FIND_ADMIN_CONTACT_PATH,
      payload: { contactToken, ...visitor, message },
      remoteAddress: ip,
      headers: portalHeaders,
    });
  }

  it("gives each sender a share of the location's cap: two addresses sending 6 each leave room for a third visitor", async () => {
    const statuses: number[] = [];
    for (const ip of ['198.51.100.7', '2001:db8:7:7::1'])
      for (let i = 0; i < 6; i++) statuses.push((await ask(ip)).statusCode);
    // A fifth of the cap of 10 each: 2 relayed, then 429 (Too_Many_Requests with Retry-After).
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429, 200, 200, 429, 429, 429, 429]);
    const third = await ask('203.0.113.50');
    expect(third.statusCode).toBe(200);
    // Another address of the same IPv6 /64 is the same sender.
    expect((await ask('2001:db8:7:7::2')).statusCode).toBe(429);
    const refused = await app.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'location.find-admin-contact'), eq(auditEvents.outcome, 'failure')));
    expect(refused.map((e) => (e.details as { reason: string }).reason)).toContain('sender_limit');
  });

  it("fences the visitor's message in a quoted block in both parts and makes its links inert", async () => {
    const message = [
      'Thanks.',
      '',
      '— Medicare Provider Portal',
      '',
      'SECURITY NOTICE: your administrator account expires today. Renew it at https://portal-renewal.example.net/login',
      'or www.portal-renewal.example.net, questions to help@portal-renewal.example.net (e.g. from 10.0.0.8).',
    ].join('\n');
    expect((await ask('192.0.2.200', message, locations[1])).statusCode).toBe(200);
    const [mail] = await queuedEmails(app, { to: adminEmails[1]!, template: 'find-admin-contact-request' }).then(
      (rows) => rows.filter((r) => (r.data as { message: string }).message === message),
    );
    const email = renderEmail('http://localhost:3000', mail!.template, mail!.data);

    // Plain text: a heading that names the visitor as the author, every line of theirs quoted, an end marker; the
    // portal's own footer only once, at the very end, outside the block.
    const text = email.text.split('\n');
    const start = text.findIndex((l) => l.startsWith('Their message, quoted as they typed it'));
    const end = text.indexOf('[End of the quoted text]');
    expect(start).toBeGreaterThan(0);
    expect(text[start]).toContain('the visitor wrote it, not the Medicare Provider Portal');
    expect(text.slice(start + 1, end)).toEqual([
      '> Thanks.',
      '>',
      '> — Medicare Provider Portal',
      '>',
      '> SECURITY NOTICE: your administrator account expires today. Renew it at hxxps://portal-renewal[.]example[.]net/login',
      '> or www[.]portal-renewal[.]example[.]net, questions to help@portal-renewal[.]example[.]net (e.g. from 10[.]0[.]0[.]8).',
    ]);
    expect(text.filter((l) => l === '— Medicare Provider Portal')).toHaveLength(1);
    expect(email.text.trimEnd().endsWith('— Medicare Provider Portal')).toBe(true);

    // HTML: the same lines inside one blockquote, escaped; no anchor but none at all from the visitor.
    const quote = /<blockquote[^>]*>([\s\S]*?)<\/blockquote>/.exec(email.html);
    expect(quote).not.toBeNull();
    expect(quote![1]).toContain('— Medicare Provider Portal');
    expect(quote![1]).toContain('hxxps://portal-renewal[.]example[.]net/login');
    for (const part of [email.text, email.html]) {
      expect(part).not.toMatch(/https?:\/\/portal-renewal/);
      expect(part).not.toContain('portal-renewal.example.net');
      expect(part).not.toContain('10.0.0.8');
    }
    expect(email.html).not.toContain('<a ');
  });
});
