import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compiledSerializerCompiler } from '../../server/serializer';

/** server/serializer.ts: answers written by fast-json-stringify from the zod schema's JSON Schema. */

const schema = z.object({
  data: z.object({ id: z.number().int(), name: z.string(), note: z.string().nullable(), tags: z.array(z.string()).optional() }),
});
const route = (validate: boolean) =>
  compiledSerializerCompiler({ validate })({ schema, method: 'GET', url: '/api/x', httpStatus: '200' } as never) as (
    data: unknown,
  ) => string;

describe('compiled serializer', () => {
  it('writes what zod would: unknown keys left out, optional keys only when present', () => {
    for (const validate of [true, false]) {
      const write = route(validate);
      expect(JSON.parse(write({ data: { id: 1, name: 'Lote', note: null, secret: 'x' }, extra: 1 }))).toEqual({
        data: { id: 1, name: 'Lote', note: null },
      });
      expect(JSON.parse(write({ data: { id: 2, name: 'B', note: 'n', tags: ['a'] } }))).toEqual({
        data: { id: 2, name: 'B', note: 'n', tags: ['a'] },
      });
    }
  });

  it('writes nullable objects, arrays, tuples and enums (merged into `type: [T, "null"]`) as zod does', () => {
    const nullable = z.object({
      styles: z.object({ dark: z.boolean() }).nullable(),
      polygon: z.array(z.tuple([z.number(), z.number()])).nullable(),
      use: z.enum(['VIVIENDA', 'COMERCIO']).nullable(),
      at: z.string().nullable(),
    });
    const write = compiledSerializerCompiler({ validate: true })({
      schema: nullable,
      method: 'GET',
      url: '/x',
      httpStatus: '200',
    } as never) as (data: unknown) => string;
    for (const value of [
      { styles: null, polygon: null, use: null, at: null },
      {
        styles: { dark: true },
        polygon: [
          [1, 2],
          [3.5, -4],
        ],
        use: 'COMERCIO',
        at: '2026-11-26',
      },
    ]) {
      expect(JSON.parse(write(value))).toEqual(value);
    }
  });

  it('refuses a wrong answer: zod checks it outside production, fast-json-stringify still refuses a missing field', () => {
    expect(() => route(true)({ data: { id: 'uno', name: 'Lote', note: null } })).toThrow();
    expect(() => route(false)({ data: { id: 1, note: null } })).toThrow(/name/);
  });

  it('falls back to the zod serializer for a schema JSON Schema cannot express', () => {
    const transformed = z.object({ at: z.date() });
    const write = compiledSerializerCompiler({ validate: false })({
      schema: transformed,
      method: 'GET',
      url: '/x',
      httpStatus: '200',
    } as never) as (data: unknown) => string;
    expect(write({ at: new Date('2026-01-01T00:00:00Z') })).toBe('{"at":"2026-01-01T00:00:00.000Z"}');
  });
});
