import type { Transform } from 'node:stream';
import { X12Parser, type X12Segment } from 'node-x12';
import type { SourceRow } from './csv-rows';
import { parsedBatches } from './parsed-batches';
import { FeedRefusal } from './refusal';

/**
 * The paid claims of an X12 835 remittance advice file (005010X221A1), streamed through node-x12's parser: one
 * segment at a time, whatever the file's size (docs/requirements/data-feeds.md#x12-835-remittance-advice). Each
 * claim payment (CLP) becomes a row in the paid-claims layout:
 *
 * - `CHECK_EFT_NUMBER` ← TRN02 (the check or EFT trace number), `PAID_DATE` ← BPR16 (the payment's date);
 * - `NPI` ← N1*PE with N103 `XX` (the payee's NPI), `PTAN` ← REF*PQ of that payee loop;
 * - `CLAIM_NUMBER` ← CLP07 (the payer's claim control number), `PAID_AMOUNT` ← CLP04,
 *   `LINE_OF_BUSINESS` ← CLP06 (`MA` Part A, `MB` Part B);
 * - `PATIENT_MBI` ← NM1*QC's NM109 (qualifier `MI`), `DATE_OF_SERVICE` ← DTM*232 (or the first service line's
 *   DTM*472 when the claim has no statement dates).
 *
 * The envelope is checked as it streams: ISA/IEA, GS/GE and ST/SE pair up, their control numbers match and their
 * counts (IEA01 groups, GE01 transactions, SE01 segments) are right; a broken one refuses the file, naming the
 * segment's position. A row's "line" is the position of its CLP segment.
 */
export async function* x12ClaimRows(path: string, onBytes?: (bytes: number) => void): AsyncGenerator<SourceRow[]> {
  // Not strict: node-x12's stream flush reports "no functional group" as an error in strict mode on every file;
  // the envelope is checked here instead, and its ISA-length diagnostic is read after the first chunk.
  const parser = new X12Parser(false);
  const batches = parsedBatches<X12Segment>(path, parser as unknown as Transform, {
    onBytes,
    reframe: wholeSegments(),
    // node-x12 makes several objects per element: a smaller buffer's segments die young, before they are promoted.
    bufferBytes: 64 * 1024,
  });

  let position = 0;
  let isa: { control: string; groups: number } | undefined;
  let gs: { control: string; transactions: number } | undefined;
  let st: { control: string; segments: number; is835: boolean } | undefined;
  let payment: { trace: string; paidDate: string } | undefined;
  let payee: { npi: string; ptan: string } | undefined;
  let inPayee = false;
  let claim: (SourceRow & { hasStatementDate: boolean }) | undefined;
  let interchanges = 0;

  const broken = (message: string): never => {
    throw new FeedRefusal('Malformed_X12', `segment ${position}: ${message}`);
  };
  const el = (segment: X12Segment, n: number) => segment.elements[n - 1]?.value.trim() ?? '';
  const isoDate = (ccyymmdd: string) =>
    /^\d{8}$/.test(ccyymmdd) ? `${ccyymmdd.slice(0, 4)}-${ccyymmdd.slice(4, 6)}-${ccyymmdd.slice(6, 8)}` : ccyymmdd;

  const finishClaim = (): SourceRow | undefined => {
    if (!claim) return undefined;
    const { hasStatementDate, ...row } = claim;
    void hasStatementDate;
    claim = undefined;
    return row;
  };

  try {
    for await (const segments of batches) {
      const rows: SourceRow[] = [];
      for (const segment of segments) {
        position++;
        if (position === 1) {
          const isaLength = parser.diagnostics.find((d) => d.message.includes('ISA segment is not the correct length'));
          if (isaLength)
            broken(
              `${isaLength.message.replace(/^X12 Standard: /, '').replace(/\.$/, '')}: the delimiters cannot be read`,
            );
        }
        const tag = segment.tag;
        if (st) st.segments++;
        switch (tag) {
          case 'ISA':
            if (isa) broken('an ISA inside an interchange (IEA missing)');
            isa = { control: el(segment, 13), groups: 0 };
            break;
          case 'IEA':
            if (!isa) broken('IEA without ISA');
            if (gs) broken('IEA inside a functional group (GE missing)');
            if (Number(el(segment, 1)) !== isa!.groups)
              broken(`IEA01 says ${el(segment, 1)} functional groups, the interchange has ${isa!.groups}`);
            if (Number(el(segment, 2)) !== Number(isa!.control))
              broken(`IEA02 ${el(segment, 2)} does not match ISA13 ${isa!.control}`);
            isa = undefined;
            interchanges++;
            break;
          case 'GS':
            if (!isa) broken('GS outside an interchange');
            if (gs) broken('a GS inside a functional group (GE missing)');
            gs = { control: el(segment, 6), transactions: 0 };
            isa!.groups++;
            break;
          case 'GE':
            if (!gs) broken('GE without GS');
            if (st) broken('GE inside a transaction (SE missing)');
            if (Number(el(segment, 1)) !== gs!.transactions)
              broken(`GE01 says ${el(segment, 1)} transactions, the group has ${gs!.transactions}`);
            if (el(segment, 2) !== gs!.control) broken(`GE02 ${el(segment, 2)} does not match GS06 ${gs!.control}`);
            gs = undefined;
            break;
          case 'ST':
            if (!gs) broken('ST outside a functional group');
            if (st) broken('an ST inside a transaction (SE missing)');
            st = { control: el(segment, 2), segments: 1, is835: el(segment, 1) === '835' };
            if (!st.is835) broken(`transaction set ${el(segment, 1)} is not an 835 remittance advice`);
            gs!.transactions++;
            payment = undefined;
            payee = undefined;
            inPayee = false;
            break;
          case 'SE': {
            if (!st) broken('SE without ST');
            if (Number(el(segment, 1)) !== st!.segments)
              broken(`SE01 says ${el(segment, 1)} segments, the transaction has ${st!.segments}`);
            if (el(segment, 2) !== st!.control) broken(`SE02 ${el(segment, 2)} does not match ST02 ${st!.control}`);
            st = undefined;
            const row = finishClaim();
            if (row) rows.push(row);
            break;
          }
          default: {
            if (!st) broken(`${tag} outside a transaction`);
            if (tag === 'BPR') payment = { trace: payment?.trace ?? '', paidDate: isoDate(el(segment, 16)) };
            else if (tag === 'TRN') payment = { trace: el(segment, 2), paidDate: payment?.paidDate ?? '' };
            else if (tag === 'N1') {
              inPayee = el(segment, 1) === 'PE';
              if (inPayee) payee = { npi: el(segment, 3) === 'XX' ? el(segment, 4) : '', ptan: '' };
            } else if (tag === 'REF' && inPayee && !claim && el(segment, 1) === 'PQ') payee!.ptan = el(segment, 2);
            else if (tag === 'CLP') {
              inPayee = false;
              const row = finishClaim();
              if (row) rows.push(row);
              const filing = el(segment, 6);
              claim = {
                line: position,
                hasStatementDate: false,
                values: {
                  CLAIM_NUMBER: el(segment, 7),
                  NPI: payee?.npi ?? '',
                  PTAN: payee?.ptan ?? '',
                  LINE_OF_BUSINESS: filing === 'MA' ? 'A' : filing === 'MB' ? 'B' : filing,
                  PATIENT_MBI: '',
                  DATE_OF_SERVICE: '',
                  PAID_AMOUNT: el(segment, 4),
                  PAID_DATE: payment?.paidDate ?? '',
                  CHECK_EFT_NUMBER: payment?.trace ?? '',
                },
              };
            } else if (claim && tag === 'NM1' && el(segment, 1) === 'QC' && el(segment, 8) === 'MI')
              claim.values.PATIENT_MBI = el(segment, 9);
            else if (claim && tag === 'DTM' && el(segment, 1) === '232') {
              claim.values.DATE_OF_SERVICE = isoDate(el(segment, 2));
              claim.hasStatementDate = true;
            } else if (claim && tag === 'DTM' && el(segment, 1) === '472' && !claim.hasStatementDate)
              claim.values.DATE_OF_SERVICE ||= isoDate(el(segment, 2));
          }
        }
      }
      if (rows.length) yield rows;
    }
  } catch (err) {
    if (err instanceof FeedRefusal) throw err;
    const e = err as Error;
    if (e.name === 'ParserError') throw new FeedRefusal('Malformed_X12', `segment ${position + 1}: ${e.message}`);
    throw err;
  }
  if (st || gs || isa)
    throw new FeedRefusal(
      'Malformed_X12',
      `segment ${position}: the file ends inside ${st ? 'a transaction (no SE)' : gs ? 'a functional group (no GE)' : 'an interchange (no IEA)'}: it looks cut short`,
    );
  if (!interchanges) throw new FeedRefusal('Empty_File', 'the file holds no X12 interchange');
}

/**
 * Hands node-x12 whole segments only, never fewer than an ISA's 106 characters at once: each buffer is cut after a
 * segment terminator (ISA's 106th character) that leaves at least 106 bytes to carry to the next write. node-x12
 * 1.7's stream parser (its `_consumeChunk`) keeps the previous buffer's unfinished segment when a buffer ends exactly
 * on a terminator and prepends it again to the next one — a claim in a few hundred thousand came out lost or garbled —
 * and drops a write shorter than 106 characters. Cut this way, it never holds an unfinished segment nor gets a short
 * write (but for a whole file shorter than an ISA, which is no interchange anyway).
 */
function wholeSegments(): (chunk: Buffer, last: boolean) => Buffer {
  const MIN_WRITE = 106;
  let carry = Buffer.alloc(0);
  let terminator: number | undefined;
  let asItComes = false;
  return (chunk, last) => {
    if (asItComes) return chunk;
    const data = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    carry = Buffer.alloc(0);
    if (last)
      // Blanks after the last terminator are no segment.
      return data.toString('latin1').trim() ? data : data.subarray(0, 0);
    if (terminator === undefined && data.length >= MIN_WRITE) {
      // Not a well-formed ISA at the start (its element separator again at character 104): node-x12 reports it at
      // the first segment, so the bytes pass as they come.
      if (data.subarray(0, 3).toString('latin1') !== 'ISA' || data[103] !== data[3]) {
        asItComes = true;
        return data;
      }
      terminator = data[MIN_WRITE - 1];
    }
    const end = terminator === undefined ? -1 : data.lastIndexOf(terminator!, data.length - 1 - MIN_WRITE);
    if (end < MIN_WRITE - 1) {
      carry = Buffer.from(data);
      return data.subarray(0, 0);
    }
    carry = Buffer.from(data.subarray(end + 1));
    return data.subarray(0, end + 1);
  };
}
