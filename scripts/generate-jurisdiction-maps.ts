// Draws the jurisdiction map images (spec §3: jurisdiction_J5_A.svg … served from a configurable base path, plus a
// default image) from public US state geometry: the us-atlas package (Census Bureau cartographic boundaries,
// already projected to Albers USA) fitted into 150×150 with d3-geo. Deterministic: same bytes on every run.
// Run: npx tsx scripts/generate-jurisdiction-maps.ts
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { geoIdentity, geoPath } from 'd3-geo';
import { feature, merge } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { defaultJurisdictionImage, selectableJurisdictions } from '../packages/contracts/src/jurisdictions';

const SIZE = 150;
const PAD = 6;
const OUTLINE = '#042789';
const FIPS: Record<string, string> = { IA: '19', KS: '20', MO: '29', NE: '31', IN: '18', MI: '26' };

const require = createRequire(import.meta.url);
const topology = JSON.parse(readFileSync(require.resolve('us-atlas/states-albers-10m.json'), 'utf8')) as Topology<{ states: GeometryCollection<{ name: string }> }>;
const states = feature(topology, topology.objects.states) as FeatureCollection<Geometry, { name: string }>;
const outDir = fileURLToPath(new URL('../web/public/images/jurisdictions/', import.meta.url));
mkdirSync(outDir, { recursive: true });

function svg(paths: string[], title: string): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}" width="${SIZE}" height="${SIZE}">`,
    `<title>${title}</title>`,
    ...paths,
    '</svg>',
    '',
  ].join('\n');
}

function fitted(shapes: FeatureCollection | Feature) {
  // The atlas is already projected (Albers USA, y down), so an identity projection only scales and centres it.
  const projection = geoIdentity().fitExtent([[PAD, PAD], [SIZE - PAD, SIZE - PAD]], shapes);
  return geoPath(projection).digits(1);
}

const written: string[] = [];
for (const option of selectableJurisdictions) {
  const members = option.providers.map((code) => {
    const state = states.features.find((f) => f.id === FIPS[code]);
    if (!state) throw new Error(`no geometry for ${code}`);
    return state;
  });
  const collection: FeatureCollection = { type: 'FeatureCollection', features: members };
  const path = fitted(collection);
  const shapes = members.map((m) => `<path d="${path(m)}" fill="${option.color}" stroke="${OUTLINE}" stroke-width="0.8" stroke-linejoin="round"/>`);
  const file = `${outDir}${option.svg}`;
  writeFileSync(file, svg(shapes, `Map of ${option.providers.join(', ')}`));
  written.push(file);
}

// Default image: the nation's outline in a neutral grey.
const lower48: Feature = { type: 'Feature', properties: {}, geometry: merge(topology, topology.objects.states.geometries.filter((g) => !['02', '15', '72', '78', '60', '66', '69'].includes(String(g.id))) as never /* Alaska, Hawaii and territories are insets */) };
// One decimal is more than this small grey outline needs.
const nationPath = fitted(lower48).digits(0);
writeFileSync(`${outDir}${defaultJurisdictionImage}`, svg([`<path d="${nationPath(lower48)}" fill="#94a3b8" stroke="#475569" stroke-width="0.6" stroke-linejoin="round"/>`], 'Map of the United States'));
written.push(`${outDir}${defaultJurisdictionImage}`);

for (const file of written) console.log(`${file.replace(fileURLToPath(new URL('..', import.meta.url)), '')}  ${readFileSync(file).length} bytes`);
