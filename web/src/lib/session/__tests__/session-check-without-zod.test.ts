// @vitest-environment node
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../../../', import.meta.url));

/** The modules a module evaluates with itself: its static imports, followed through (dynamic imports load later). */
async function staticGraph(entry: string): Promise<string[]> {
  const { metafile } = await build({
    entryPoints: [entry],
    absWorkingDir: repoRoot,
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    logLevel: 'silent',
  });
  const seen = new Set([entry]);
  const todo = [entry];
  for (let file = todo.pop(); file !== undefined; file = todo.pop())
    for (const { path, kind } of metafile.inputs[file]?.imports ?? [])
      if (kind === 'import-statement' && !seen.has(path)) {
        seen.add(path);
        todo.push(path);
      }
  return [...seen];
}

// Every page runs the session check as it loads; zod and the auth schemas it pulled in were 40–75 ms of a phone's CPU
// on every page (docs/decisions/0060).
describe("the session check's first load", () => {
  it('evaluates neither zod nor a contracts schema module', async () => {
    const graph = await staticGraph('web/src/lib/session/session-api.ts');
    expect(graph).toContain('web/src/lib/api-client.ts');
    expect(graph.filter((path) => path.includes('node_modules/zod/'))).toEqual([]);
    expect(graph.filter((path) => /contracts\/src\/(auth|http|fields)\.ts$/.test(path))).toEqual([]);
  });
});
