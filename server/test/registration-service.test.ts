import { latestDayOnEarth } from '@portal/contracts/fields';
import { npiCheckDigit } from '@portal/contracts/identifiers';
import {
  selfRegistrationRequest,
  validateAuthorityRequest,
  ValidateProviderRequest,
} from '@portal/contracts/registration';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, claims } from '../src/db/schema';
import { userByUsername } from '../src/db/users';
import { registerAdministrator } from '../src/modules/registration/account-creation';
import { verifyEmail } from '../src/modules/registration/email-verification';
import { validateAuthority, validateProvider } from '../src/modules/registration/provider-validation';
import { PortalError } from '../src/platform/portal-error';
import { contextOf } from '../src/identity/service-context';
import { buildTestApp, testConfig } from './helpers';
import { createLocation, queuedEmails } from './factories';

/**
 * The registration flows run as plain functions over a ServiceContext (docs/architecture.md#server-modules): no HTTP
 * request, no inject. The HTTP behaviour is registration.test.ts's.
 */

const NOW = new Date('2026-11-23T12:00:00Z');
const today = () => latestDayOnEarth(NOW);
const client = { ip: '10.9.0.1', requestId: 'direct-call-1', userAgent: 'vitest' };

describe('registration services called directly with contextOf(app, client)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    ({ app } = await buildTestApp({ clock: () => NOW, config: testConfig({ PASSWORD_HASH_MEMORY_KIB: '19456' }) }));
  });
  afterAll(() => app.close());

  it('validates the provider and its authority, registers the administrator and verifies the address', async () => {
    const { db } = app.database;
    const first9 = '190000001';
    const npi = `${first9}${npiCheckDigit(first9)}`;
    const location = await createLocation(app, {
      npi,
      ptan: 'PD000001',
      tin: '981234567',
      legalName: 'Direct Call Clinic',
      jurisdiction: 'J8',
      lineOfBusiness: 'A',
      state: 'MI',
      city: 'Lansing',
      zip: '48901',
    });
    await db.insert(claims).values({
      locationId: location!.id,
      claimNumber: '9900000000001',
      patientMbi: '1EG4TE5MK99',
      dateOfService: '2026-09-01',
      checkNumber: 'EFT990000001',
      paidAmount: '100.00',
      paidDate: '2026-10-01',
    });
    const ctx = contextOf(app, client);

    const provider = await validateProvider(
      ctx,
      ValidateProviderRequest.parse({
        npi,
        ptan: 'PD000001',
        tin: '98-1234567',
        jurisdiction: 'J8',
        lineOfBusiness: 'A',
      }),
    );
    expect(provider.location).toEqual({
      legalName: 'Direct Call Clinic',
      jurisdiction: 'J8',
      lineOfBusiness: 'A',
      maskedTin: expect.stringContaining('4567'),
    });

    const authority = (claimNumber: string) =>
      validateAuthority(
        ctx,
        validateAuthorityRequest(today).parse({
          npi,
          validationToken: provider.validationToken,
          financialLookupSelector: 'claim',
          claimNumber,
        }),
      );
    await expect(authority('9900000000002')).rejects.toMatchObject({ code: 'Authority_Not_Verified' });
    await expect(authority('9900000000002')).rejects.toBeInstanceOf(PortalError);
    const registrationToken = await authority('9900000000001');

    await registerAdministrator(
      ctx,
      selfRegistrationRequest(today).parse({
        registrationToken,
        firstName: 'Dana',
        lastName: 'Direct',
        email: 'dana.direct@example.org',
        emailConfirmation: 'dana.direct@example.org',
        phone: '(517) 555-0100',
        dob: '1970-02-03',
        username: 'dana.direct',
        password: 'copper lantern meadow 77 harbor',
        securityQuestions: [
          { questionId: 'first-car', answer: 'Civic' },
          { questionId: 'first-school', answer: 'Lincoln' },
          { questionId: 'childhood-nickname', answer: 'Dee' },
        ],
      }),
    );
    expect(await userByUsername(db, 'DANA.DIRECT')).toMatchObject({ status: 'pending' });
    const [mail] = await queuedEmails(db, { to: 'dana.direct@example.org' });
    expect(mail).toMatchObject({ template: 'verify-email' });

    await verifyEmail(ctx, mail!.data.token as string);
    expect(await userByUsername(db, 'dana.direct')).toMatchObject({ status: 'active' });

    // Every step audited, stamped with the client the context carries.
    const events = await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.requestId, client.requestId))
      .orderBy(auditEvents.id);
    expect(events.map((e) => [e.action, e.outcome])).toEqual([
      ['registration.provider', 'success'],
      ['registration.authority', 'failure'],
      ['registration.authority', 'failure'],
      ['registration.authority', 'success'],
      ['registration.submit', 'success'],
      ['registration.verify-email', 'success'],
    ]);
    expect(new Set(events.map((e) => e.ip))).toEqual(new Set([client.ip]));
  });
});
