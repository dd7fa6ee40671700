/**
 * Lot boundaries for contracts (src/lib/administracion/lot-boundaries.ts; docs/domain.md "Contract
 * variables: lot boundaries"): a lone rectangle, a block of four lots, a back shared by two lots
 * (a T-junction vertex), a corner lot, and the same block in longitude/latitude.
 */
import { describe, expect, it } from 'vitest';
import { lotBoundaries, neighbourLabel, STREET_LABEL, type BoundaryPoint } from '../../../../src/lib/administracion/lot-boundaries';

const rect = (x: number, y: number, w: number, h: number): BoundaryPoint[] => [
  [x, y],
  [x + w, y],
  [x + w, y + h],
  [x, y + h],
];

/** A block of four 10 × 20 m lots: 1 and 2 face the south street, 3 and 4 the north one. */
const BLOCK = {
  1: rect(0, 0, 10, 20),
  2: rect(10, 0, 10, 20),
  3: rect(0, 20, 10, 20),
  4: rect(10, 20, 10, 20),
} as const;
const others = (n: keyof typeof BLOCK, transform = (p: BoundaryPoint) => p) =>
  (Object.keys(BLOCK) as unknown as (keyof typeof BLOCK)[])
    .filter((k) => Number(k) !== Number(n))
    .map((k) => ({ polygon: BLOCK[k].map(transform), label: neighbourLabel(String(k), 'B') }));

describe('lotBoundaries', () => {
  it('a lone rectangle borders the street on every side; the front is its narrow side', () => {
    expect(lotBoundaries(rect(0, 0, 8, 20), [], false)).toEqual({
      front: { length_m: 8, neighbour: STREET_LABEL },
      right: { length_m: 20, neighbour: STREET_LABEL },
      back: { length_m: 8, neighbour: STREET_LABEL },
      left: { length_m: 20, neighbour: STREET_LABEL },
    });
  });

  it('in a block of four, each lot faces its street, with the neighbours right, left and back as seen from the street', () => {
    expect(lotBoundaries(BLOCK[1], others(1), false)).toEqual({
      front: { length_m: 10, neighbour: STREET_LABEL },
      right: { length_m: 20, neighbour: 'Lote 2 de la Mz. B' },
      back: { length_m: 10, neighbour: 'Lote 3 de la Mz. B' },
      left: { length_m: 20, neighbour: STREET_LABEL },
    });
    // Lot 3 faces north: standing on the north street facing south, the right is west (the street).
    expect(lotBoundaries(BLOCK[3], others(3), false)).toEqual({
      front: { length_m: 10, neighbour: STREET_LABEL },
      right: { length_m: 20, neighbour: STREET_LABEL },
      back: { length_m: 10, neighbour: 'Lote 1 de la Mz. B' },
      left: { length_m: 20, neighbour: 'Lote 4 de la Mz. B' },
    });
  });

  it('takes a clockwise ring and a closed ring as well', () => {
    const clockwise: BoundaryPoint[] = [...BLOCK[2], BLOCK[2][0]!].reverse();
    expect(lotBoundaries(clockwise, others(2), false)).toEqual({
      front: { length_m: 10, neighbour: STREET_LABEL },
      right: { length_m: 20, neighbour: STREET_LABEL },
      back: { length_m: 10, neighbour: 'Lote 4 de la Mz. B' },
      left: { length_m: 20, neighbour: 'Lote 1 de la Mz. B' },
    });
  });

  it('a back shared by two lots (a vertex where their corner meets it) is one side naming both in order', () => {
    const lot: BoundaryPoint[] = [
      [0, 0],
      [20, 0],
      [20, 20],
      [10, 20],
      [0, 20],
    ];
    const result = lotBoundaries(
      lot,
      [
        { polygon: rect(0, 20, 10, 15), label: neighbourLabel('7', 'C') },
        { polygon: rect(10, 20, 10, 15), label: neighbourLabel('8', 'C') },
        { polygon: rect(20, 0, 10, 20), label: neighbourLabel('2', 'C') },
      ],
      false,
    );
    // Street on the south (20 m) and west (20 m): the shortest street side — a tie — is the first one found, the south.
    expect(result?.front).toEqual({ length_m: 20, neighbour: STREET_LABEL });
    expect(result?.right).toEqual({ length_m: 20, neighbour: 'Lote 2 de la Mz. C' });
    expect(result?.back).toEqual({ length_m: 20, neighbour: 'Lote 8 de la Mz. C y Lote 7 de la Mz. C' });
  });

  it('names the lot and the street when a side is partly bordered', () => {
    const result = lotBoundaries(rect(0, 0, 10, 20), [{ polygon: rect(10, 0, 10, 12), label: 'Lote 9 de la Mz. A' }], false);
    expect(result?.right).toEqual({ length_m: 20, neighbour: `Lote 9 de la Mz. A y ${STREET_LABEL}` });
  });

  it('measures longitude/latitude rings in metres', () => {
    // Around Carabayllo (−77.03, −11.85): 1 m ≈ 1/111 195 degrees of latitude.
    const degreesPerMetre = 1 / ((Math.PI / 180) * 6_371_008.8);
    const cos = Math.cos((-11.85 * Math.PI) / 180);
    const toGeo = ([x, y]: BoundaryPoint): BoundaryPoint => [-77.03 + (x * degreesPerMetre) / cos, -11.85 + y * degreesPerMetre];
    const result = lotBoundaries(BLOCK[1].map(toGeo), others(1, toGeo), true);
    expect(result?.front?.neighbour).toBe(STREET_LABEL);
    expect(result?.front?.length_m).toBeCloseTo(10, 1);
    expect(result?.right).toEqual({ length_m: expect.closeTo(20, 1) as number, neighbour: 'Lote 2 de la Mz. B' });
    expect(result?.back?.neighbour).toBe('Lote 3 de la Mz. B');
  });

  it('a triangle has no back; a degenerate ring has no boundaries', () => {
    const result = lotBoundaries(
      [
        [0, 0],
        [10, 0],
        [0, 10],
      ],
      [],
      false,
    );
    expect(result?.back).toBeNull();
    expect(result?.front?.length_m).toBe(10);
    expect(
      lotBoundaries(
        [
          [0, 0],
          [0, 0],
          [1, 1],
        ],
        [],
        false,
      ),
    ).toBeNull();
  });

  it('labels a lot not for sale by its use', () => {
    expect(neighbourLabel('1', 'P', 'Recreación / parque')).toBe('Recreación / parque (Lote 1 de la Mz. P)');
  });
});
