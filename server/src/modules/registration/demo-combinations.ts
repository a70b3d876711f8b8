import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../platform/db-executor';

export interface DemoCombination {
  jurisdiction: string;
  lineOfBusiness: string;
  legalName: string;
  npi: string;
  ptan: string;
  tin: string;
  claimNumber: string;
  checkNumber: string;
  patientMbi: string;
  dateOfService: string;
  paidDate: string;
}

/**
 * Ready-made registration data (README "Demo registration"): per jurisdiction and line of business, the first
 * `perGroup` demo locations (by NPI, PTAN) that no account is linked to, each with its most recent paid claim.
 * NPI, PTAN, TIN and the claim's numbers depend only on the seed; the dates move with the demo's day.
 */
export async function demoRegistrationCombinations(db: Db, perGroup = 3): Promise<DemoCombination[]> {
  return rowsOf<DemoCombination>(
    await db.execute(sql`
      select jurisdiction, "lineOfBusiness", "legalName", npi, ptan, tin, "claimNumber", "checkNumber", "patientMbi",
        "dateOfService", "paidDate"
      from (
        select l.jurisdiction::text as jurisdiction, l.line_of_business::text as "lineOfBusiness",
          l.legal_name as "legalName", l.npi, l.ptan, l.tin, c.claim_number as "claimNumber",
          c.check_number as "checkNumber", c.patient_mbi as "patientMbi",
          c.date_of_service::text as "dateOfService", c.paid_date::text as "paidDate",
          row_number() over (partition by l.jurisdiction, l.line_of_business order by l.npi, l.ptan) as rank
        from provider_locations l
        join lateral (
          select * from claims where location_id = l.id order by paid_date desc limit 1
        ) c on true
        where l.status = 'active'
          and not exists (select 1 from user_locations ul where ul.location_id = l.id)
          -- the detailed demo locations (bulk ones have an NPI starting with 3)
          and l.npi < '3'
      ) ranked
      where rank <= ${perGroup}
      order by jurisdiction, "lineOfBusiness", rank`),
  );
}
