import { loadConfigOrExit } from '../../config';
import { openDatabase } from '../../db/client';
import { demoRegistrationCombinations } from './demo-combinations';

// Prints the ready-made registration data of this installation's demo data, with today's dates of service.
const config = loadConfigOrExit();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const rows = await demoRegistrationCombinations(database.db);
  if (!rows.length)
    console.log('No free demo locations: start the server once with SEED_DEMO_DATA on, or npm run seed.');
  const mmddyyyy = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
  for (const r of rows)
    console.log(
      `${r.jurisdiction}/${r.lineOfBusiness}  NPI ${r.npi}  PTAN ${r.ptan}  TIN ${r.tin}  claim ${r.claimNumber}  check/EFT ${r.checkNumber}  MBI ${r.patientMbi} + date of service ${mmddyyyy(r.dateOfService)}  (${r.legalName})`,
    );
} finally {
  await database.close();
}
