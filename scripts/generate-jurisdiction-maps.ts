// Draws the jurisdiction map images (docs/requirements/jurisdictions.md#map-images: jurisdiction_J5_A.svg … plus the default image) from public US state
// geometry: the us-atlas package (US Census Bureau cartographic boundary files, 1:10m, as TopoJSON), projected with
// d3-geo (equal-area conic, fitted into 150×150) and written as small static SVGs. No text is drawn; the page's
// <img alt> names the map.
//
// Deterministic: the same input packages give the same bytes on every run (no dates, no randomness, fixed order).
//
// Run from the repository root: tsx scripts/generate-jurisdiction-maps.ts   (or: npm run maps)
//
// How the files stay small: every topology arc is projected and simplified once (Douglas–Peucker in pixel space),
// so a border shared by two states, or by a fill and its outline, is simplified identically; coordinates are then
// rounded to 0.1 px and written as relative path commands; rings smaller than a fraction of a pixel are dropped.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { geoBounds, geoConicEqualArea, type GeoProjection } from 'd3-geo';
import { feature, merge, mesh } from 'topojson-client';
import type { GeometryCollection, GeometryObject, Topology } from 'topojson-specification';
import type { Feature, FeatureCollection, Geometry, MultiLineString, MultiPolygon, Polygon, Position } from 'geojson';
import {
  defaultJurisdictionImage,
  jurisdictionOptions,
  type JurisdictionOption,
} from '../packages/contracts/src/jurisdictions';

const SIZE = 150;
const PAD = 6; // px of padding inside the 150×150 box
const OUTLINE = '#042789';
const OUTLINE_WIDTH = 0.75;
const DEFAULT_FILL = '#94a3b8';

/** Postal code → FIPS state code (the `id` of each state in us-atlas). */
const FIPS: Readonly<Record<string, string>> = {
  AL: '01',
  AK: '02',
  AZ: '04',
  AR: '05',
  CA: '06',
  CO: '08',
  CT: '09',
  DE: '10',
  DC: '11',
  FL: '12',
  GA: '13',
  HI: '15',
  ID: '16',
  IL: '17',
  IN: '18',
  IA: '19',
  KS: '20',
  KY: '21',
  LA: '22',
  ME: '23',
  MD: '24',
  MA: '25',
  MI: '26',
  MN: '27',
  MS: '28',
  MO: '29',
  MT: '30',
  NE: '31',
  NV: '32',
  NH: '33',
  NJ: '34',
  NM: '35',
  NY: '36',
  NC: '37',
  ND: '38',
  OH: '39',
  OK: '40',
  OR: '41',
  PA: '42',
  RI: '44',
  SC: '45',
  SD: '46',
  TN: '47',
  TX: '48',
  UT: '49',
  VT: '50',
  VA: '51',
  WA: '53',
  WV: '54',
  WI: '55',
  WY: '56',
  PR: '72',
};
/** Not part of the lower-48 outline: Alaska, Hawaii and the territories. */
const NOT_LOWER_48 = new Set(['02', '15', '60', '66', '69', '72', '78']);

type StateProps = { name: string };
type Atlas = Topology<{ states: GeometryCollection<StateProps>; nation: GeometryCollection }>;

const require = createRequire(import.meta.url);
const atlas = JSON.parse(readFileSync(require.resolve('us-atlas/states-10m.json'), 'utf8')) as Atlas;
const stateGeometries = atlas.objects.states.geometries;
const states = feature(atlas, atlas.objects.states) as FeatureCollection<Geometry, StateProps>;

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = fileURLToPath(new URL('../web/public/images/jurisdictions/', import.meta.url));
mkdirSync(outDir, { recursive: true });

// ---------------------------------------------------------------------------------------------------------------
// Projection and a projected, simplified copy of the topology

/** Equal-area conic (Albers parallels for the US) turned to the middle of the shapes and fitted into the box. */
function fittedProjection(shapes: FeatureCollection): GeoProjection {
  const [[west], [east]] = geoBounds(shapes);
  return geoConicEqualArea()
    .parallels([29.5, 45.5])
    .rotate([-(west + east) / 2, 0])
    .fitExtent(
      [
        [PAD, PAD],
        [SIZE - PAD, SIZE - PAD],
      ],
      shapes,
    );
}

/** Absolute longitude/latitude of every arc (us-atlas arcs are quantized and delta-encoded). */
const geoArcs: Position[][] = atlas.arcs.map((arc) => {
  const {
    scale: [kx, ky],
    translate: [tx, ty],
  } = atlas.transform!;
  let x = 0;
  let y = 0;
  return arc.map(([dx, dy]) => {
    x += dx!;
    y += dy!;
    return [x * kx + tx, y * ky + ty];
  });
});

/** Douglas–Peucker on a projected line; keeps both ends, so arcs still meet exactly at their nodes. */
function simplify(points: Position[], tolerance: number): Position[] {
  if (points.length <= 2) return points;
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack: [number, number][] = [[0, points.length - 1]];
  while (stack.length) {
    const [first, last] = stack.pop()!;
    const [ax, ay] = points[first]!;
    const [bx, by] = points[last]!;
    const dx = bx! - ax!;
    const dy = by! - ay!;
    const length2 = dx * dx + dy * dy;
    let farthest = -1;
    let max = tolerance * tolerance;
    for (let i = first + 1; i < last; i++) {
      const [px, py] = points[i]!;
      let ex = px! - ax!;
      let ey = py! - ay!;
      if (length2 > 0) {
        const t = Math.max(0, Math.min(1, (ex * dx + ey * dy) / length2));
        ex -= t * dx;
        ey -= t * dy;
      }
      const distance2 = ex * ex + ey * ey;
      if (distance2 > max) {
        max = distance2;
        farthest = i;
      }
    }
    if (farthest >= 0) {
      keep[farthest] = 1;
      stack.push([first, farthest], [farthest, last]);
    }
  }
  return points.filter((_, i) => keep[i]);
}

/** The atlas with every arc projected to pixels and simplified; feature()/mesh()/merge() on it give pixel shapes. */
function projectedAtlas(projection: GeoProjection, tolerance: number): Atlas {
  const arcs = geoArcs.map((arc) =>
    simplify(
      arc.map((point) => projection(point as [number, number]) ?? [Number.NaN, Number.NaN]),
      tolerance,
    ),
  );
  const { transform: _unused, ...rest } = atlas;
  return { ...rest, arcs } as Atlas;
}

// ---------------------------------------------------------------------------------------------------------------
// Pixel shapes → compact SVG path data

const tenths = (value: number) => Math.round(value * 10);
const num = (value: number) => {
  const text = String(value / 10);
  return text.startsWith('0.') ? text.slice(1) : text.startsWith('-0.') ? `-${text.slice(2)}` : text;
};
const pair = (x: number, y: number) => `${num(x)}${y < 0 ? '' : ','}${num(y)}`;

/** Twice the signed area of a closed ring, in px². */
function ringArea(ring: [number, number][]): number {
  let area = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    area += ring[j]![0] * ring[i]![1] - ring[i]![0] * ring[j]![1];
  return area / 2;
}

/** Path data for lines (closed rings end with "z"); rings under MIN_AREA px² — specks of islands — are left out. */
const MIN_AREA = 0.5;
function pathData(lines: Position[][], closed: boolean): string {
  let d = '';
  for (const line of lines) {
    // Round to 0.1 px, then drop points that round onto their predecessor.
    const points: [number, number][] = [];
    for (const [x, y] of line) {
      const p: [number, number] = [tenths(x!), tenths(y!)];
      const last = points[points.length - 1];
      if (!last || last[0] !== p[0] || last[1] !== p[1]) points.push(p);
    }
    const isRing =
      closed ||
      (points.length > 2 &&
        points[0]![0] === points[points.length - 1]![0] &&
        points[0]![1] === points[points.length - 1]![1]);
    if (
      isRing &&
      points.length > 1 &&
      points[0]![0] === points[points.length - 1]![0] &&
      points[0]![1] === points[points.length - 1]![1]
    )
      points.pop();
    if (isRing ? points.length < 3 || Math.abs(ringArea(points)) / 100 < MIN_AREA : points.length < 2) continue;
    let [px, py] = points[0]!;
    d += `M${pair(px, py)}l`;
    for (let i = 1; i < points.length; i++) {
      const [x, y] = points[i]!;
      d += `${i > 1 && x - px >= 0 ? ' ' : ''}${pair(x - px, y - py)}`;
      px = x;
      py = y;
    }
    if (isRing) d += 'z';
  }
  return d;
}

const polygonRings = (geometry: Geometry): Position[][] =>
  geometry.type === 'Polygon'
    ? (geometry as Polygon).coordinates
    : geometry.type === 'MultiPolygon'
      ? (geometry as MultiPolygon).coordinates.flat()
      : [];

function svg(paths: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}" width="${SIZE}" height="${SIZE}">`,
    ...paths,
    '</svg>',
    '',
  ].join('\n');
}

function write(name: string, content: string): void {
  writeFileSync(`${outDir}${name}`, content);
  console.log(`${`${outDir}${name}`.replace(root, '')}  ${Buffer.byteLength(content)} bytes`);
}

// ---------------------------------------------------------------------------------------------------------------
// One map per jurisdiction option with an image: member states filled, outlined, with borders between them

function stateId(code: string): string {
  const id = FIPS[code];
  if (!id || !stateGeometries.some((g) => g.id === id)) throw new Error(`no state geometry for postal code ${code}`);
  return id;
}

for (const option of jurisdictionOptions as readonly JurisdictionOption[]) {
  if (!option.svg) continue;
  if (!option.color) throw new Error(`${option.value} has an image but no colour`);
  const ids = new Set(option.providers.map(stateId));
  const isMember = (g: GeometryObject) => ids.has(String(g.id));
  const members: FeatureCollection = {
    type: 'FeatureCollection',
    features: states.features.filter((f) => ids.has(String(f.id))),
  };

  const pixels = projectedAtlas(fittedProjection(members), 0.25);
  const fill = stateGeometries
    .filter(isMember)
    .map((g) => pathData(polygonRings((feature(pixels, g as GeometryObject) as Feature).geometry), true))
    .join('');
  // Every arc that touches a member state: the group's outline and the borders between members.
  const borders = mesh(pixels, pixels.objects.states, (a, b) => isMember(a) || isMember(b)) as MultiLineString;

  write(
    option.svg,
    svg([
      `<path fill="${option.color}" d="${fill}"/>`,
      `<path fill="none" stroke="${OUTLINE}" stroke-width="${OUTLINE_WIDTH}" stroke-linejoin="round" stroke-linecap="round" d="${pathData(borders.coordinates, false)}"/>`,
    ]),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Default image: the lower-48 outline in a neutral grey

{
  const shapes: FeatureCollection = {
    type: 'FeatureCollection',
    features: states.features.filter((f) => !NOT_LOWER_48.has(String(f.id))),
  };
  const projection = geoConicEqualArea()
    .parallels([29.5, 45.5])
    .rotate([96, 0])
    .fitExtent(
      [
        [PAD, PAD],
        [SIZE - PAD, SIZE - PAD],
      ],
      shapes,
    );
  const pixels = projectedAtlas(projection, 0.35);
  const nation = merge(
    pixels,
    pixels.objects.states.geometries.filter((g) => !NOT_LOWER_48.has(String(g.id))) as never,
  );
  write(defaultJurisdictionImage, svg([`<path fill="${DEFAULT_FILL}" d="${pathData(polygonRings(nation), true)}"/>`]));
}
