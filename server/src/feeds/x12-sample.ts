import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';

/** A paid claim as the paid-claims CSV layout holds it (docs/requirements/data-feeds.md#paid-claims-paid-claims). */
export interface PaidClaim {
  claimNumber: string;
  npi: string;
  ptan: string;
  lineOfBusiness: string;
  patientMbi: string;
  dateOfService: string;
  paidAmount: string;
  paidDate: string;
  checkNumber: string;
}

const compact = (isoDay: string) => isoDay.replaceAll('-', '');
const pad = (value: string, width: number) => value.padEnd(width).slice(0, width);

/**
 * Writes claims as an X12 835 (005010X221A1) interchange, one transaction per payment (consecutive claims with the
 * same check/EFT number, payee and paid date share one): the sample and benchmark files the 835 import reads. The
 * import reads them through node-x12's parser; this only lays test data out.
 */
export async function write835(path: string, claims: Iterable<PaidClaim>): Promise<void> {
  const out = createWriteStream(path);
  let buffer = '';
  const emit = async (text: string) => {
    buffer += text;
    if (buffer.length > 256 * 1024) {
      const ok = out.write(buffer);
      buffer = '';
      if (!ok) await once(out, 'drain');
    }
  };
  const control = '000000001';
  await emit(
    `ISA*00*${pad('', 10)}*00*${pad('', 10)}*ZZ*${pad('MACPAYER', 15)}*ZZ*${pad('PROVIDERS', 15)}*261122*1200*^*00501*${control}*0*P*:~\n`,
  );
  await emit(`GS*HP*MACPAYER*PROVIDERS*20261122*1200*1*X*005010X221A1~\n`);
  let transactions = 0;
  let open: { key: string; segments: number; control: string } | undefined;
  const close = async () => {
    if (!open) return;
    await emit(`SE*${open.segments + 1}*${open.control}~\n`);
    open = undefined;
  };
  for (const c of claims) {
    const key = `${c.checkNumber}|${c.npi}|${c.ptan}|${c.paidDate}`;
    if (open?.key !== key) {
      await close();
      transactions++;
      const stControl = String(transactions).padStart(9, '0');
      open = { key, segments: 0, control: stControl };
      const header = [
        `ST*835*${stControl}*005010X221A1~`,
        `BPR*I*${c.paidAmount}*C*ACH*CCP*01*011000015*DA*123456789*1512345678**01*999988880*DA*98765*${compact(c.paidDate)}~`,
        `TRN*1*${c.checkNumber}*1512345678~`,
        `DTM*405*${compact(c.paidDate)}~`,
        `N1*PR*MEDICARE ADMINISTRATIVE CONTRACTOR~`,
        `N1*PE*PROVIDER*XX*${c.npi}~`,
        `REF*PQ*${c.ptan}~`,
        `LX*1~`,
      ];
      open.segments += header.length;
      await emit(`${header.join('\n')}\n`);
    }
    const body = [
      `CLP*PCN${c.claimNumber.slice(-8)}*1*${c.paidAmount}*${c.paidAmount}**${c.lineOfBusiness === 'A' ? 'MA' : 'MB'}*${c.claimNumber}*11*1~`,
      `NM1*QC*1*PATIENT*DEMO****MI*${c.patientMbi}~`,
      `DTM*232*${compact(c.dateOfService)}~`,
      `DTM*233*${compact(c.dateOfService)}~`,
    ];
    open!.segments += body.length;
    await emit(`${body.join('\n')}\n`);
  }
  await close();
  await emit(`GE*${transactions}*1~\nIEA*1*${control}~\n`);
  out.end(buffer);
  await finished(out);
}
