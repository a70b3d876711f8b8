/** Why a whole file was refused; nothing of it was written (docs/requirements/data-feeds.md#bad-rows-and-refusals). */
export type RefusalCode =
  | 'Already_Imported'
  | 'Import_Running'
  | 'Empty_File'
  | 'Invalid_Encoding'
  | 'Cut_Mid_Line'
  | 'Wrong_Header'
  | 'Wrong_Delimiter'
  | 'Quoted_Newline'
  | 'Malformed_CSV'
  | 'Malformed_X12'
  | 'Wrong_Format'
  | 'Duplicate_Keys'
  | 'Too_Many_Rejects'
  | 'Too_Many_End_Dated'
  | 'Mode_Not_Allowed';

/** The command's exit codes (docs/requirements/data-feeds.md#exit-codes). */
export const EXIT_CODES = {
  imported: 0,
  failed: 1,
  usage: 2,
  refused: 3,
  alreadyImported: 4,
  running: 5,
} as const;

export class FeedRefusal extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
    this.name = 'FeedRefusal';
  }

  get exitCode(): number {
    if (this.code === 'Already_Imported') return EXIT_CODES.alreadyImported;
    if (this.code === 'Import_Running') return EXIT_CODES.running;
    return EXIT_CODES.refused;
  }
}
