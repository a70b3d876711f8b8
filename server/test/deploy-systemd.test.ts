import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const analyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) => existsSync(p));
/** The exposure `systemd-analyze security` may give a unit at most (docs/requirements/platform.md#operations). */
const MAX_EXPOSURE = 4.0;

if (!analyze)
  console.warn(
    '\n*** deploy-systemd.test.ts SKIPPED: systemd-analyze is not installed (Debian: apt-get install systemd). ' +
      'The units in deploy/systemd are NOT rated. .ci/run installs it. ***\n',
  );

// The units as installed: the template under an instance name, as `systemctl enable portal@3001` uses it.
const units = [
  { source: 'deploy/systemd/portal@.service', installedAs: 'portal@3001.service' },
  { source: 'deploy/systemd/portal-cms.service', installedAs: 'portal-cms.service' },
];

describe.skipIf(!analyze)('deploy/systemd: the units are sandboxed (systemd-analyze security, offline)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'portal-units-'));
  for (const unit of units) copyFileSync(join(repoRoot, unit.source), join(dir, unit.installedAs));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(units)(`rates $source ${MAX_EXPOSURE.toFixed(1)} or lower`, ({ source, installedAs }) => {
    const result = spawnSync(analyze!, ['security', '--offline=true', '--no-pager', join(dir, installedAs)], {
      encoding: 'utf8',
    });
    const output = `${result.stdout}${result.stderr}`;
    const match = /Overall exposure level for \S+: (\d+\.\d+) (\S+)/.exec(output);
    expect(match, output).not.toBeNull();
    const exposure = Number(match![1]);
    // Printed for the record (the issue asks for the figure, not only a pass).
    console.log(`systemd-analyze security ${source}: ${exposure} ${match![2]} (at most ${MAX_EXPOSURE.toFixed(1)})`);
    const open = output.split('\n').filter((line) => line.startsWith('✗'));
    expect(exposure, `still exposed:\n${open.join('\n')}`).toBeLessThanOrEqual(MAX_EXPOSURE);
  });

  it('the units parse without a warning (no unknown or misspelt directive)', () => {
    const result = spawnSync(analyze!, ['verify', ...units.map((u) => join(dir, u.installedAs))], {
      encoding: 'utf8',
    });
    // A machine without /usr/bin/node (a developer's Node elsewhere) gets "is not executable": not the units' fault.
    const warnings = `${result.stdout}${result.stderr}`
      .split('\n')
      .filter((line) => line.trim() && !/is not executable|Command .* is not/.test(line));
    expect(warnings).toEqual([]);
  });
});
