// `npm run docs:config`: writes docs/configuration.md from the settings' descriptions (server/src/config-docs.ts).
import { writeFileSync } from 'node:fs';
import { repoRoot } from './config';
import { renderConfigurationDoc } from './config-docs';

const target = `${repoRoot}docs/configuration.md`;
writeFileSync(target, renderConfigurationDoc());
console.log(`wrote ${target}`);
