import { createReadStream } from 'node:fs';
import type { Transform } from 'node:stream';

/**
 * Drives a parser written as a Node Transform stream (csv-parse, node-x12) over a file, one read buffer at a time,
 * and answers what it parsed from each buffer as one array: the parser runs synchronously inside `write`, so a
 * million rows cost a few hundred awaits instead of one per row (docs/decisions/0077-import-speed.md). Memory stays
 * one read buffer plus its parsed values. `reframe` may hold back the tail of a buffer for the next one (the X12
 * reader hands node-x12 whole segments only); what it returns is written to the parser.
 */
export async function* parsedBatches<T>(
  path: string,
  parser: Transform,
  options: {
    onBytes?: (bytes: number) => void;
    reframe?: (chunk: Buffer, last: boolean) => Buffer;
    /** The read buffer's size; default 256 KB. */
    bufferBytes?: number;
  } = {},
): AsyncGenerator<T[]> {
  const input = createReadStream(path, { highWaterMark: options.bufferBytes ?? 256 * 1024 });
  let failure: unknown;
  parser.on('error', (err) => (failure ??= err));
  const drain = (): T[] => {
    const out: T[] = [];
    for (let item = parser.read() as T | null; item !== null; item = parser.read() as T | null) out.push(item);
    failure ??= parser.errored;
    if (failure) throw failure;
    return out;
  };
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      options.onBytes?.(input.bytesRead);
      const framed = options.reframe ? options.reframe(chunk, false) : chunk;
      if (framed.length) parser.write(framed);
      const batch = drain();
      if (batch.length) yield batch;
    }
    const rest = options.reframe?.(Buffer.alloc(0), true);
    if (rest?.length) parser.write(rest);
    parser.end();
    // The parser's flush may run on a later tick: read what it pushes until it ends.
    const tail: T[] = [];
    for await (const item of parser as AsyncIterable<T>) tail.push(item);
    if (failure) throw failure;
    if (tail.length) yield tail;
  } finally {
    input.destroy();
    parser.destroy();
  }
}
