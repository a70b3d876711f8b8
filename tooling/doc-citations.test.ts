import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// scripts/check-doc-citations.mjs (run by `npm run lint`) on a small repository laid out in a temporary folder.
const script = path.resolve(import.meta.dirname, '..', 'scripts', 'check-doc-citations.mjs');
let root: string | undefined;

function check(files: Record<string, string>): { status: number | null; problems: string[] } {
  root = mkdtempSync(path.join(tmpdir(), 'doc-citations-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  const run = spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
  return { status: run.status, problems: run.stderr.split('\n').filter((line) => line.includes('.md:')) };
}

afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

const tree = {
  'server/src/platform/retention.ts': '',
  'server/src/identity/one-time-tokens.ts': '',
  'web/src/components/status/status-message.tsx': '',
};

describe('source paths cited in Markdown', () => {
  it('fails on a file that no longer exists, cited in full or by its tail', () => {
    const { status, problems } = check({
      ...tree,
      'notes/decision-tokens.md':
        'Purged in `platform/one-time-tokens.ts`.\nThe store, `server/src/platform/session.ts`.\n',
    });
    expect(status).toBe(1);
    expect(problems).toEqual([
      'notes/decision-tokens.md:1: platform/one-time-tokens.ts: no such file',
      'notes/decision-tokens.md:2: server/src/platform/session.ts: no such file',
    ]);
  });

  it('passes files and folders that exist, in full or by a tail, and leaves other slashed code alone', () => {
    const { status, problems } = check({
      ...tree,
      'README.md': [
        'See `server/src/platform/retention.ts`, `identity/one-time-tokens.ts`, `status/status-message.tsx`,',
        '`server/src/identity/`, `web/src` and `components/status/`.',
        'Not paths: `application/json`, `zod/mini`, `import-x/no-cycle`, `LISTEN/NOTIFY`, `/api/admin/*`,',
        'the runtime folders `done/` and `data/pgdata`, a build output `web/dist/index.html`, a placeholder',
        '`bench/results/YYYY-MM-DD-topic.md`, and `@fastify/cookie`.',
        '```sh',
        'cat server/src/in-a-fence.ts',
        '```',
      ].join('\n'),
    });
    expect(problems).toEqual([]);
    expect(status).toBe(0);
  });
});
