/**
 * schemas/list (issue "Configuración", the CRUD pattern): the paged answer schema and the
 * ListQuery ↔ URL query round trip (filters kept in the URL, so a link reproduces the view).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listQueryFromSearchParams, listQueryToSearchParams, pagedResponseSchema } from '../../../src/schemas/list';

describe('pagedResponseSchema', () => {
  const schema = pagedResponseSchema(z.object({ id: z.number(), name: z.string() }));

  it('accepts { data, meta }', () => {
    const body = { data: [{ id: 1, name: 'Ana' }], meta: { page: 1, per_page: 20, total: 1 } };
    expect(schema.parse(body)).toEqual(body);
  });

  it('rejects a bad item or per_page over 100', () => {
    expect(schema.safeParse({ data: [{ id: 'x' }], meta: { page: 1, per_page: 20, total: 1 } }).success).toBe(false);
    expect(schema.safeParse({ data: [], meta: { page: 1, per_page: 101, total: 0 } }).success).toBe(false);
    expect(schema.safeParse({ data: [], meta: { page: 0, per_page: 20, total: 0 } }).success).toBe(false);
  });
});

describe('ListQuery ↔ URL', () => {
  it('round-trips page, size, sort, text and filters', () => {
    const query = { page: 3, per_page: 50, sort: '-created_at', q: 'Pérez, Ana', filters: { status: 'ACTIVO', role_id: '2' } };
    const params = listQueryToSearchParams(query);
    expect(params.toString()).toBe('page=3&per_page=50&sort=-created_at&q=P%C3%A9rez%2C+Ana&role_id=2&status=ACTIVO');
    expect(listQueryFromSearchParams(params.toString())).toEqual(query);
  });

  it('leaves defaults out of the URL', () => {
    expect(listQueryToSearchParams({ page: 1, per_page: 20, q: '  ', filters: { status: '' } }).toString()).toBe('per_page=20');
  });

  it('falls back to defaults for unreadable values and caps per_page', () => {
    expect(listQueryFromSearchParams('?page=-2&per_page=500&sort=drop%20table')).toEqual({
      page: 1,
      per_page: 100,
      sort: undefined,
      q: undefined,
      filters: {},
    });
    expect(listQueryFromSearchParams('', { perPage: 10 }).per_page).toBe(10);
  });

  it('keeps only the allowed filters when told', () => {
    expect(listQueryFromSearchParams('status=ACTIVO&utm_source=x', { allowedFilters: ['status'] }).filters).toEqual({ status: 'ACTIVO' });
  });
});
