import { isValidMbi, isValidNpi } from '@portal/contracts/identifiers';
import { REGISTRATION_ROUTES } from '@portal/contracts/registration';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshDemoClaimDates } from '../src/db/demo-data';
import { seedDemoThroughFeeds } from '../src/feeds/demo-seed';
import { seedDemoAccounts } from '../src/modules/auth/demo-accounts';
import { demoRegistrationCombinations } from '../src/modules/registration/demo-combinations';
import { rowsOf } from '../src/platform/db-executor';
import { buildTestApp, createTestDatabase, portalHeaders } from './helpers';

const SEED_DAY = '2026-11-23';
/** The demo is started 120 days after its data was seeded. */
const LATER = new Date(Date.parse(`${SEED_DAY}T12:00:00Z`) + 120 * 86_400_000);

/** README "Demo registration": one row per jurisdiction and line of business (date of service in days before today). */
const README_ROWS = [
  {
    jurisdiction: 'J5',
    lob: 'A',
    npi: '1046498295',
    ptan: '740013',
    tin: '54-2733950',
    claim: '1969800000039AS',
    check: 'EFT747900117',
    mbi: '8EC6ME9EK78',
    dosDaysAgo: 51,
  },
  {
    jurisdiction: 'J5',
    lob: 'B',
    npi: '1029158577',
    ptan: 'BWI0000063',
    tin: '80-4108675',
    claim: '2806200000189',
    check: 'EFT100909904',
    mbi: '5DX3TF3GN23',
    dosDaysAgo: 35,
  },
  {
    jurisdiction: 'J8',
    lob: 'A',
    npi: '1016190625',
    ptan: '160228',
    tin: '41-5151129',
    claim: '7280800000684AX',
    check: 'EFT270107669',
    mbi: '2JF1CM0RU46',
    dosDaysAgo: 31,
  },
  {
    jurisdiction: 'J8',
    lob: 'B',
    npi: '1095199638',
    ptan: 'BJW0000120',
    tin: '83-6647097',
    claim: '4552600000360',
    check: 'CHK436078114',
    mbi: '3D21AY6MP78',
    dosDaysAgo: 24,
  },
  {
    jurisdiction: 'J5',
    lob: 'A',
    npi: '1059028013',
    ptan: '930159',
    tin: '71-4379499',
    claim: '7591700000477AT',
    check: 'EFT802627272',
    mbi: '5WK2NT7HR31',
    dosDaysAgo: 21,
  },
  {
    jurisdiction: 'J5',
    lob: 'B',
    npi: '1059028013',
    ptan: 'BAG0000158',
    tin: '71-4379499',
    claim: '2924600000474',
    check: 'EFT672884195',
    mbi: '6K80VA8EN33',
    dosDaysAgo: 29,
  },
  {
    jurisdiction: 'J8',
    lob: 'A',
    npi: '1016190625',
    ptan: '790229',
    tin: '41-5151129',
    claim: '7242800000687AV',
    check: 'CHK490115816',
    mbi: '5D91QX3QT71',
    dosDaysAgo: 42,
  },
  {
    jurisdiction: 'J8',
    lob: 'B',
    npi: '1097423952',
    ptan: 'BZF0000077',
    tin: '12-6620821',
    claim: '0184300000231',
    check: 'EFT841692481',
    mbi: '3UN2NE8VX46',
    dosDaysAgo: 29,
  },
];

describe('demo registration data', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    const database = await createTestDatabase();
    // As npm start seeds: the sample feed files' 1,000 locations through the data-feed import
    // (docs/requirements/data-feeds.md#demo-data), and 150 generated in bulk by PostgreSQL.
    await seedDemoThroughFeeds(database, { locations: 1150, today: SEED_DAY });
    ({ app } = await buildTestApp({ database, clock: () => LATER }));
    await seedDemoAccounts(app.database.db, app.passwordHasher, app.secrets.encryptionKey);
  });
  afterAll(() => app.close());

  it('generates valid identifiers, two claims inside the lookback and one outside, for detailed and bulk locations', async () => {
    const { db } = app.database;
    const locations = rowsOf<{ id: string; npi: string }>(
      await db.execute(sql`select id, npi from provider_locations`),
    );
    // RFC-shaped ids (the audit trail checks them) for the bulk rows too.
    expect(locations.filter((l) => !z.uuid().safeParse(l.id).success)).toEqual([]);
    expect(locations).toHaveLength(1150);
    expect(locations.filter((l) => !isValidNpi(l.npi))).toEqual([]);
    expect(locations.filter((l) => l.npi.startsWith('3'))).toHaveLength(150);
    const mbis = rowsOf<{ patient_mbi: string }>(await db.execute(sql`select patient_mbi from claims`));
    expect(mbis.filter((c) => !isValidMbi(c.patient_mbi))).toEqual([]);
    const ages = rowsOf<{ recent: number; old: number }>(
      await db.execute(sql`
        select count(*) filter (where paid_date >= ${SEED_DAY}::date - 90)::int as recent,
               count(*) filter (where paid_date < ${SEED_DAY}::date - 90)::int as old
        from claims group by location_id`),
    );
    expect(ages.every((a) => a.recent === 2 && a.old === 1)).toBe(true);
  });

  it("keeps the README's combinations working when the demo starts months later (claim dates move with today)", async () => {
    const moved = await refreshDemoClaimDates(app.database.db, LATER.toISOString().slice(0, 10));
    expect(moved).toBe(120);
    const today = LATER.toISOString().slice(0, 10);
    const daysAgo = (n: number) =>
      new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);
    let ip = 0;
    for (const row of README_ROWS) {
      const proofs = [
        { financialLookupSelector: 'claim', claimNumber: row.claim },
        { financialLookupSelector: 'check', checkNumber: row.check },
        { financialLookupSelector: 'patient', patientMbi: row.mbi, dateOfService: daysAgo(row.dosDaysAgo) },
      ];
      for (const proof of proofs) {
        const remoteAddress = `10.3.0.${++ip}`;
        const provider = await app.inject({
          method: 'POST',
          url: REGISTRATION_ROUTES.validateProvider,
          remoteAddress,
          headers: portalHeaders,
          payload: {
            npi: row.npi,
            ptan: row.ptan,
            tin: row.tin,
            jurisdiction: row.jurisdiction,
            lineOfBusiness: row.lob,
            passthroughResponse: true,
          },
        });
        expect(provider.statusCode, `${row.npi} provider`).toBe(200);
        const authority = await app.inject({
          method: 'POST',
          url: REGISTRATION_ROUTES.validateAuthority,
          remoteAddress,
          headers: portalHeaders,
          payload: {
            npi: row.npi,
            validationToken: provider.json().data.validationToken,
            passthroughResponse: true,
            ...proof,
          },
        });
        expect(authority.json(), `${row.npi} ${proof.financialLookupSelector}`).toMatchObject({
          data: { success: true },
        });
      }
    }
    // The CLI's listing (npm run demo:registration): three free locations per group, with today's dates.
    const listed = await demoRegistrationCombinations(app.database.db);
    expect(listed).toHaveLength(12);
    expect(listed.every((c) => c.paidDate >= daysAgo(90) && c.paidDate <= today)).toBe(true);
  });
});
