import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import compress from '@fastify/compress';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IN_PLACE_BYTES, registerSmallJsonCompression } from '../../server/platform/small-json-compression';

/**
 * server/platform/small-json-compression.ts: JSON answers of 1–64 KiB are compressed in the
 * `onSend` hook, before @fastify/compress (registered after it, as in server/app.ts), which still
 * takes the larger ones; both give the same bytes back once decompressed.
 */
describe('small JSON answers compressed in place', () => {
  const app = Fastify();
  const rows = (n: number) => ({ data: Array.from({ length: n }, (_, i) => ({ id: i, name: `Fila número ${i} de la lista` })) });
  const small = rows(40);
  const large = rows(4_000);

  beforeAll(async () => {
    registerSmallJsonCompression(app);
    await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
    app.get('/small', async (_request, reply) => reply.header('vary', 'origin').send(small));
    app.get('/large', async () => large);
    app.get('/tiny', async () => ({ ok: true }));
    app.get('/text', async (_request, reply) => reply.type('text/plain').send('x'.repeat(4_000)));
    await app.ready();
  });
  afterAll(() => app.close());

  it('sizes the examples on both sides of the limit', () => {
    expect(JSON.stringify(small).length).toBeGreaterThan(1024);
    expect(JSON.stringify(small).length).toBeLessThan(MAX_IN_PLACE_BYTES);
    expect(JSON.stringify(large).length).toBeGreaterThan(MAX_IN_PLACE_BYTES);
  });

  it('answers br or gzip as negotiated, keeps other Vary values, and decompresses to the same JSON', async () => {
    const br = await app.inject({ method: 'GET', url: '/small', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toBe('origin, accept-encoding');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(small);
    const gz = await app.inject({ method: 'GET', url: '/small', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(small);
  });

  it('leaves to the plugin what is larger, and sends as is what is small, not JSON, refused or not accepted', async () => {
    const big = await app.inject({ method: 'GET', url: '/large', headers: { 'accept-encoding': 'br' } });
    expect(big.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(big.rawPayload).toString())).toEqual(large);
    const plain = await app.inject({ method: 'GET', url: '/small', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(small);
    const refused = await app.inject({ method: 'GET', url: '/small', headers: { 'accept-encoding': 'br', 'x-no-compression': '1' } });
    expect(refused.headers['content-encoding']).toBeUndefined();
    const tiny = await app.inject({ method: 'GET', url: '/tiny', headers: { 'accept-encoding': 'br' } });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    // Text is the plugin's to compress (it does, as before this hook).
    const text = await app.inject({ method: 'GET', url: '/text', headers: { 'accept-encoding': 'gzip' } });
    expect(gunzipSync(text.rawPayload).toString()).toBe('x'.repeat(4_000));
  });
});
