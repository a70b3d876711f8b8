// Creates a new embedded database (PGlite's initdb) in the folder given as the first argument, with the PGlite
// options given as JSON in the second, then exits. openPglite (client.ts) runs it as a child process on a first start:
// PGlite's initdb runs in a second, temporary WASM instance whose memory the server process would otherwise
// hold until a garbage collection long after, and above the embedded default's memory budget
// (docs/decisions/0070-pglite-memory.md). Ending this process gives it all back at once.
import { PGlite } from '@electric-sql/pglite';

const [dataDir, options] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: pglite-init.mjs <data folder> [<PGlite options as JSON>]');
const db = await PGlite.create(dataDir, options ? JSON.parse(options) : {});
await db.close();
