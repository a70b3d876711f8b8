import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { CsvError, parse } from 'csv-parse';
import type { FeedColumn } from '@portal/contracts/data-feeds';
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
 * record in memory at a time. The header must name every column of the layout (in any order; extra columns, such as
 * the rest of a PECOS file, are ignored). A quoted value that spans lines is refused: no feed value holds a line
 * break, so one means a broken export.
 */
export async function* csvRows(
  path: string,
  columns: readonly FeedColumn[],
  onBytes?: (bytes: number) => void,
): AsyncGenerator<SourceRow> {
  await refuseOtherDelimiter(path);
  const input = createReadStream(path, { highWaterMark: 256 * 1024 });
  if (onBytes) input.on('data', () => onBytes(input.bytesRead));
  const parser = input.pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true, trim: false }),
  );
  input.on('error', (err) => parser.destroy(err));
  let header: string[] | undefined;
  let positions: number[] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = info.lines;
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
      columns.forEach((column, i) => (values[column.name] = (record[positions[i]!] ?? '').trim()));
      yield record.length === header.length ? { line, values } : { line, values, shapeError: 'Wrong_Column_Count' };
    }
  } catch (err) {
    if (err instanceof FeedRefusal) throw err;
    if (err instanceof CsvError) {
      const lines = (err as CsvError & { lines?: number }).lines;
      throw new FeedRefusal('Malformed_CSV', `line ${lines ?? '?'}: ${err.message}`);
    }
    throw err;
  } finally {
    input.destroy();
  }
  if (!header) throw new FeedRefusal('Empty_File', 'the file holds no header and no rows');
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
