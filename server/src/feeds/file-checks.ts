import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { FeedRefusal } from './refusal';

export interface FileFacts {
  sha256: string;
  bytes: number;
  /** Whether the file starts with a UTF-8 byte-order mark (tolerated, skipped by the parser). */
  bom: boolean;
}

/**
 * One streaming pass over the file before anything is written (docs/requirements/data-feeds.md#bad-rows-and-refusals): its
 * SHA-256 (idempotence), that it is UTF-8 throughout, and that it ends with a line break (a file cut mid-line by a
 * failed transfer does not). Holds one read buffer at a time, whatever the file's size.
 */
export async function inspectFile(path: string, options: { requireFinalNewline: boolean }): Promise<FileFacts> {
  const hash = createHash('sha256');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let bytes = 0;
  let lines = 1;
  let last = -1;
  let first: Buffer | undefined;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    first ??= chunk;
    hash.update(chunk);
    try {
      decoder.decode(chunk, { stream: true });
    } catch {
      throw new FeedRefusal(
        'Invalid_Encoding',
        `the file is not valid UTF-8 (a bad byte after byte ${bytes.toLocaleString('en-US')}, line ${lines.toLocaleString('en-US')} or just after); export it as UTF-8`,
      );
    }
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    bytes += chunk.length;
    last = chunk[chunk.length - 1]!;
  }
  try {
    decoder.decode();
  } catch {
    throw new FeedRefusal('Invalid_Encoding', 'the file is not valid UTF-8 (it ends inside a character)');
  }
  if (bytes === 0) throw new FeedRefusal('Empty_File', 'the file is empty (0 bytes)');
  if (options.requireFinalNewline && last !== 10)
    throw new FeedRefusal(
      'Cut_Mid_Line',
      `the file ends mid-line (line ${lines.toLocaleString('en-US')} has no line break): it looks cut short; export it again`,
    );
  const bom = first !== undefined && first[0] === 0xef && first[1] === 0xbb && first[2] === 0xbf;
  return { sha256: hash.digest('hex'), bytes, bom };
}
