import turfArea from '@turf/area';
import Flatbush from 'flatbush';

/**
 * Plane and geographic geometry of lot polygons for the importer (docs/import.md "Comprobaciones").
 * A ring is an array of `[x, y]` vertices, not closed (first ≠ last). PLAN rings are in metres
 * (y up); GEO rings are `[longitude, latitude]` in degrees (WGS84).
 */

/** A vertex `[x, y]`. */
export type Point = [number, number];
/** A polygon's outer ring, not closed. */
export type Ring = Point[];

/** Mean earth radius used for geographic lengths (metres, the one @turf/length uses). */
const EARTH_RADIUS_M = 6371008.8;

/** Rounds to 2 decimals (m², metres). */
export const round2 = (value: number): number => Math.round(value * 100) / 100;

/** True when every vertex could be longitude/latitude (|x| ≤ 180, |y| ≤ 90). */
export function isGeographic(rings: readonly Ring[]): boolean {
  let any = false;
  for (const ring of rings) {
    for (const [x, y] of ring) {
      any = true;
      if (Math.abs(x) > 180 || Math.abs(y) > 90) return false;
    }
  }
  return any;
}

/** Drops a repeated closing vertex (and consecutive duplicates within `tolerance`). */
export function openRing(points: readonly Point[], tolerance = 1e-9): Ring {
  const ring: Ring = [];
  for (const p of points) {
    const last = ring[ring.length - 1];
    if (!last || Math.abs(last[0] - p[0]) > tolerance || Math.abs(last[1] - p[1]) > tolerance) ring.push([p[0], p[1]]);
  }
  if (ring.length > 1) {
    const [first, last] = [ring[0]!, ring[ring.length - 1]!];
    if (Math.abs(first[0] - last[0]) <= tolerance && Math.abs(first[1] - last[1]) <= tolerance) ring.pop();
  }
  return ring;
}

/** Shoelace area of a plan ring, in square units (m² for metres). */
export function planArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[(i + 1) % ring.length]!;
    sum += x1 * y2 - x2 * y1;
  }
  return Math.abs(sum) / 2;
}

/** Area of a lon/lat ring in m² (@turf/area, spherical). */
export function geoArea(ring: Ring): number {
  return turfArea({ type: 'Polygon', coordinates: [[...ring, ring[0]!]] });
}

/** Euclidean perimeter of a plan ring (units of the plan). */
export function planPerimeter(ring: Ring): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[(i + 1) % ring.length]!;
    sum += Math.hypot(x2 - x1, y2 - y1);
  }
  return sum;
}

/** Haversine perimeter of a lon/lat ring, in metres. */
export function geoPerimeter(ring: Ring): number {
  const rad = Math.PI / 180;
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [lon1, lat1] = ring[i]!;
    const [lon2, lat2] = ring[(i + 1) % ring.length]!;
    const dLat = (lat2 - lat1) * rad;
    const dLon = (lon2 - lon1) * rad;
    const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
    sum += 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
  }
  return sum;
}

/** Area (m²) and perimeter (m) of a ring in its coordinate system. */
export function measureRing(ring: Ring, geographic: boolean): { area: number; perimeter: number } {
  return geographic ? { area: geoArea(ring), perimeter: geoPerimeter(ring) } : { area: planArea(ring), perimeter: planPerimeter(ring) };
}

/** Bounding box `[minX, minY, maxX, maxY]`. */
export function bbox(ring: Ring): [number, number, number, number] {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const [x, y] of ring) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

/** Vertex average (good enough as a "near" point and as an interior point of convex lots). */
export function centroid(ring: Ring): Point {
  let x = 0, y = 0;
  for (const p of ring) {
    x += p[0];
    y += p[1];
  }
  return [x / ring.length, y / ring.length];
}

/** Ray-casting point-in-polygon (points on the boundary may go either way). */
export function pointInRing([px, py]: Point, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Distance from `p` to the segment a–b. */
function segmentDistance([px, py]: Point, [ax, ay]: Point, [bx, by]: Point): number {
  const dx = bx - ax, dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** Distance from `p` to the ring's boundary. */
function boundaryDistance(p: Point, ring: Ring): number {
  let best = Infinity;
  for (let i = 0; i < ring.length; i++) best = Math.min(best, segmentDistance(p, ring[i]!, ring[(i + 1) % ring.length]!));
  return best;
}

/** True when `p` is inside `ring` by more than `tolerance` from its boundary. */
function strictlyInside(p: Point, ring: Ring, tolerance: number): boolean {
  return pointInRing(p, ring) && boundaryDistance(p, ring) > tolerance;
}

/** Signed distance of `p` from the line through a–b (positive on the left). */
function sideOf([px, py]: Point, [ax, ay]: Point, [bx, by]: Point): number {
  const len = Math.hypot(bx - ax, by - ay) || 1;
  return ((bx - ax) * (py - ay) - (by - ay) * (px - ax)) / len;
}

/** True when segments a1–a2 and b1–b2 cross properly (each endpoint beyond `tolerance` of the other line). */
function segmentsCross(a1: Point, a2: Point, b1: Point, b2: Point, tolerance: number): boolean {
  const d1 = sideOf(b1, a1, a2), d2 = sideOf(b2, a1, a2);
  if (!((d1 > tolerance && d2 < -tolerance) || (d1 < -tolerance && d2 > tolerance))) return false;
  const d3 = sideOf(a1, b1, b2), d4 = sideOf(a2, b1, b2);
  return (d3 > tolerance && d4 < -tolerance) || (d3 < -tolerance && d4 > tolerance);
}

/** Signed shoelace area (positive when counter-clockwise). */
function signedArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[(i + 1) % ring.length]!;
    sum += x1 * y2 - x2 * y1;
  }
  return sum / 2;
}

/** True when the ring is convex (collinear vertices allowed). */
export function isConvex(ring: Ring): boolean {
  let sign = 0;
  for (let i = 0; i < ring.length; i++) {
    const [ax, ay] = ring[i]!;
    const [bx, by] = ring[(i + 1) % ring.length]!;
    const [cx, cy] = ring[(i + 2) % ring.length]!;
    const cross = (bx - ax) * (cy - by) - (by - ay) * (cx - bx);
    if (Math.abs(cross) < 1e-12) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

/** Sutherland–Hodgman: `subject` clipped by the convex `clip`. */
function clipByConvex(subject: Ring, clip: Ring): Ring {
  const ccw = signedArea(clip) >= 0 ? clip : [...clip].reverse();
  let output: Ring = subject;
  for (let i = 0; i < ccw.length && output.length > 0; i++) {
    const a = ccw[i]!, b = ccw[(i + 1) % ccw.length]!;
    const inside = (p: Point) => (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0;
    const cut = (p: Point, q: Point): Point => {
      const d1 = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
      const d2 = (b[0] - a[0]) * (q[1] - a[1]) - (b[1] - a[1]) * (q[0] - a[0]);
      const t = d1 / (d1 - d2);
      return [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])];
    };
    const input = output;
    output = [];
    for (let j = 0; j < input.length; j++) {
      const p = input[j]!, q = input[(j + 1) % input.length]!;
      if (inside(q)) {
        if (!inside(p)) output.push(cut(p, q));
        output.push(q);
      } else if (inside(p)) output.push(cut(p, q));
    }
  }
  return output;
}

/**
 * True when two lots' interiors overlap by more than `tolerance` (a length in the rings' units;
 * the area threshold is 500 × tolerance², 0.05 m² for 1 cm). Shared edges and touching corners
 * are not overlaps. When either lot is convex (nearly all lots) the shared area is computed exactly
 * (Sutherland–Hodgman); otherwise: edges crossing properly, or a vertex (or the vertex average)
 * of one lot strictly inside the other.
 */
export function ringsOverlap(a: Ring, b: Ring, tolerance: number): boolean {
  const minArea = 500 * tolerance * tolerance;
  if (isConvex(b)) return Math.abs(signedArea(clipByConvex(a, b))) > minArea;
  if (isConvex(a)) return Math.abs(signedArea(clipByConvex(b, a))) > minArea;
  for (let i = 0; i < a.length; i++) {
    const a1 = a[i]!, a2 = a[(i + 1) % a.length]!;
    for (let j = 0; j < b.length; j++) {
      if (segmentsCross(a1, a2, b[j]!, b[(j + 1) % b.length]!, tolerance)) return true;
    }
  }
  for (const p of a) if (strictlyInside(p, b, tolerance)) return true;
  for (const p of b) if (strictlyInside(p, a, tolerance)) return true;
  const ca = centroid(a), cb = centroid(b);
  if (pointInRing(ca, a) && strictlyInside(ca, b, tolerance)) return true;
  if (pointInRing(cb, b) && strictlyInside(cb, a, tolerance)) return true;
  return false;
}

/**
 * Pairs `[i, j]` (i < j) of rings that overlap: a flatbush index of bounding boxes shrunk by
 * `tolerance` finds candidates (O(n log n) for lots of similar size), then {@link ringsOverlap}.
 * Stops once `limit` pairs are found (issue 11 item 1: N identical squares have N²/2 overlapping
 * pairs, so the work must be bounded), in the order of the rings.
 */
export function overlappingPairs(rings: readonly Ring[], tolerance: number, limit = Infinity): Array<[number, number]> {
  if (rings.length < 2 || limit <= 0) return [];
  const index = new Flatbush(rings.length);
  const boxes = rings.map(bbox);
  for (const [minX, minY, maxX, maxY] of boxes) index.add(minX, minY, maxX, maxY);
  index.finish();
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < boxes.length; i++) {
    const [minX, minY, maxX, maxY] = boxes[i]!;
    // Shrinking the query box skips neighbours that only share an edge.
    const found = index.search(minX + tolerance, minY + tolerance, maxX - tolerance, maxY - tolerance).sort((p, q) => p - q);
    for (const j of found) {
      if (j > i && ringsOverlap(rings[i]!, rings[j]!, tolerance)) {
        pairs.push([i, j]);
        if (pairs.length >= limit) return pairs;
      }
    }
  }
  return pairs;
}

/**
 * For each point, the index of the first ring containing it (or -1), through a flatbush index of
 * the rings' bounding boxes.
 */
export function locatePoints(points: readonly Point[], rings: readonly Ring[]): number[] {
  if (rings.length === 0) return points.map(() => -1);
  const index = new Flatbush(rings.length);
  for (const ring of rings) {
    const [minX, minY, maxX, maxY] = bbox(ring);
    index.add(minX, minY, maxX, maxY);
  }
  index.finish();
  return points.map(([x, y]) => {
    const found = index.search(x, y, x, y).sort((p, q) => p - q);
    return found.find((i) => pointInRing([x, y], rings[i]!)) ?? -1;
  });
}
