import { open } from 'node:fs/promises';
import { CsvError, Parser } from 'csv-parse';
import type { FeedColumn } from '@portal/contracts/data-feeds';
import { parsedBatches } from './parsed-batches';
import { FeedRefusal } from './refusal';

/** One data row of a feed file: its line number and its values by column name (trimmed; '' when blank). */
export interface SourceRow {
  line: number;
  values: Record<string, string>;
  /** Set when the row cannot be read as the layout's columns at all (a wrong count of fields). */
  shapeError?: 'Wrong_Column_Count';
}

const OTHER_DELIMITERS = [';', '\t', '|'];

/**
 * The rows of an RFC 4180 CSV file (docs/requirements/data-feeds.md#file-format), streamed through csv-parse: one
 * read buffer's rows in memory at a time, answered as one array. The header must name every column of the layout (in any order; extra columns, such as
 * the rest of a PECOS file, are ignored). A quoted value that spans lines is refused: no feed value holds a line
 * break, so one means a broken export.
 */
export async function* csvRows(
  path: string,
  columns: readonly FeedColumn[],
  onBytes?: (bytes: number) => void,
): AsyncGenerator<SourceRow[]> {
  await refuseOtherDelimiter(path);
  const parser = new NumberedParser({ bom: true, relax_column_count: true, skip_empty_lines: true, trim: false });
  let header: string[] | undefined;
  let positions: number[] = [];
  try {
    for await (const records of parsedBatches<NumberedRecord>(path, parser, { onBytes })) {
      const rows: SourceRow[] = [];
      for (const { record, line } of records) {
        if (!header) {
          header = record.map((name) => name.trim().toUpperCase());
          const missing = columns.filter((column) => !header!.includes(column.name)).map((column) => column.name);
          if (missing.length) {
            throw new FeedRefusal(
              'Wrong_Header',
              `line 1: the header lacks ${missing.join(', ')} (expected the columns ${columns.map((c) => c.name).join(', ')})`,
            );
          }
          positions = columns.map((column) => header!.indexOf(column.name));
          continue;
        }
        for (const value of record)
          if (value.includes('\n') || value.includes('\r'))
            throw new FeedRefusal(
              'Quoted_Newline',
              `line ${line}: a quoted value spans lines; feed values never hold a line break, so the export is broken`,
            );
        const values: Record<string, string> = {};
        for (let i = 0; i < columns.length; i++) values[columns[i]!.name] = (record[positions[i]!] ?? '').trim();
        rows.push(
          record.length === header.length ? { line, values } : { line, values, shapeError: 'Wrong_Column_Count' },
        );
      }
      if (rows.length) yield rows;
    }
  } catch (err) {
    if (err instanceof FeedRefusal) throw err;
    if (err instanceof CsvError) {
      const lines = (err as CsvError & { lines?: number }).lines;
      throw new FeedRefusal('Malformed_CSV', `line ${lines ?? '?'}: ${err.message}`);
    }
    throw err;
  }
  if (!header) throw new FeedRefusal('Empty_File', 'the file holds no header and no rows');
}

interface NumberedRecord {
  record: string[];
  line: number;
}

/**
 * csv-parse's stream, each record with its line number. Its `info` option does the same with an object of a dozen
 * counters per record, which cost twice the parsing itself (200,000 claims: 2.99 s with it, 1.05 s without;
 * docs/decisions/0089-import-rebuild-and-parse.md); the parser's running `info.lines` is read as each record is pushed.
 */
class NumberedParser extends Parser {
  override push(record: unknown): boolean {
    return super.push(record === null ? null : ({ record, line: this.info.lines } as NumberedRecord));
  }
}

/** A header line without a comma but with another usual delimiter: refused before any row is read. */
async function refuseOtherDelimiter(path: string): Promise<void> {
  const handle = await open(path);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(64 * 1024), 0, 64 * 1024, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const firstLine = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'));
    const delimiter = OTHER_DELIMITERS.find((d) => firstLine.includes(d));
    if (!firstLine.includes(',') && delimiter)
      throw new FeedRefusal(
        'Wrong_Delimiter',
        `line 1: the header is separated by ${JSON.stringify(delimiter)}: fields must be separated by commas`,
      );
  } finally {
    await handle.close();
  }
}
