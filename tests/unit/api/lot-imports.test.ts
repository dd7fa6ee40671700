/**
 * api/lot-imports (docs/import.md "Upload progress"): in the browser (jsdom here) the preview and
 * commit are sent with XMLHttpRequest — same URL, Accept and bearer token as the api client —
 * reporting upload progress, answers parsed by the same schemas and errors normalised to ApiError
 * (ImportRejectedError for a refused import); the signal aborts the request. A fake
 * XMLHttpRequest stands in for the network.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NETWORK_ERROR_MESSAGE, createApiClient } from '../../../src/api/client';
import { ImportRejectedError, createLotImportsApi } from '../../../src/api/proyectos/lot-imports';
import type { ImportPreview } from '../../../src/schemas/proyectos/projects';

/** The one XMLHttpRequest a test drives: records the request, fires upload and answer events on demand. */
class FakeXhr extends EventTarget {
  static last: FakeXhr | null = null;
  readonly upload = new EventTarget();
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  responseText = '';
  aborted = false;

  constructor() {
    super();
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.dispatchEvent(new Event('abort'));
  }
  /** Upload progress: `loaded` of `total` bytes sent. */
  progress(loaded: number, total: number) {
    this.upload.dispatchEvent(new ProgressEvent('progress', { lengthComputable: true, loaded, total }));
  }
  /** The whole body sent, then the server's answer. */
  answer(status: number, body: unknown) {
    this.upload.dispatchEvent(new ProgressEvent('load'));
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.dispatchEvent(new ProgressEvent('load'));
  }
}

const bases = {
  main: 'http://api.test/api',
  customer: 'http://api.test/api/customer',
  private: 'http://api.test/api/private',
  public: 'http://api.test/',
};
const api = (token: string | null = 'tok-123') => createLotImportsApi(createApiClient({ bases, getToken: () => token }));
const csv = () => new File(['manzana,lote,area,precio_m2\nA,1,150.50,250.00\n'], 'lotes.csv', { type: 'text/csv' });
const xhr = () => {
  if (!FakeXhr.last) throw new Error('no XMLHttpRequest was sent');
  return FakeXhr.last;
};

const PREVIEW: ImportPreview = {
  format: 'CSV',
  layers: null,
  layer: null,
  lots: [
    {
      block: 'A',
      number: '1',
      code: 'MZ A - LT 1',
      area_m2: 150.5,
      drawn_area_m2: null,
      perimeter_m: null,
      price_per_m2: 25000,
      has_polygon: false,
      action: 'CREATE',
    },
  ],
  issues: [],
  summary: { create: 1, update: 0, errors: 0, warnings: 0 },
  can_import: true,
};

beforeEach(() => {
  FakeXhr.last = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('lot imports api over XMLHttpRequest', () => {
  it('sends the choices as text fields before the file (`resolutions`, `land_uses`) and reads the land-use values of the preview', async () => {
    const landUses = [{ label: 'Zona reservada', use: 'OTROS_USOS' as const }];
    const resolutions = [{ position: 2, code: 'MZ A - LT 1', action: 'DROP' as const }];
    const pending = api().preview('k1', csv(), null, {}, { resolutions, landUses });
    const body = xhr().body as FormData;
    expect([...body.keys()]).toEqual(['resolutions', 'land_uses', 'file']);
    expect(JSON.parse(String(body.get('land_uses')))).toEqual(landUses);
    const values = [{ label: 'Zona reservada', lots: 2, use: null, source: 'UNMAPPED', extra: 1 }];
    xhr().answer(200, { data: { ...PREVIEW, use_values: values, use_values_more: 0, use_values_unmapped: 1 } });
    // Tolerant: an unknown key is dropped; a use or source this app does not know reads as none.
    expect((await pending).use_values).toEqual([{ label: 'Zona reservada', lots: 2, use: null, source: 'UNMAPPED' }]);
    const odd = api().preview('k1', csv());
    xhr().answer(200, { data: { ...PREVIEW, use_values: [{ label: 'Huerto', lots: 1, use: 'AGRICOLA', source: 'IA' }] } });
    expect((await odd).use_values).toEqual([{ label: 'Huerto', lots: 1, use: null, source: undefined }]);
  });

  it('posts the multipart form to the main base with Accept and the bearer token, reports progress and parses the preview', async () => {
    const onProgress = vi.fn();
    const file = csv();
    const pending = api().preview('k3/Xq', file, 'LOTES', { onProgress });
    const request = xhr();
    expect(request.method).toBe('POST');
    expect(request.url).toBe('http://api.test/api/subdivisions/k3%2FXq/imports/preview');
    expect(request.headers).toMatchObject({ accept: 'application/json', authorization: 'Bearer tok-123' });
    expect(request.headers['content-type']).toBeUndefined();
    const body = request.body as FormData;
    expect([...body.keys()]).toEqual(['layer', 'file']);
    expect(body.get('layer')).toBe('LOTES');
    expect((body.get('file') as File).name).toBe('lotes.csv');

    request.progress(450, 1000);
    expect(onProgress).toHaveBeenLastCalledWith(0.45);
    request.answer(200, { data: PREVIEW });
    expect(onProgress).toHaveBeenLastCalledWith(1);
    await expect(pending).resolves.toEqual(PREVIEW);
  });

  it('sends no Authorization header without a stored token', async () => {
    const pending = api(null).commit('k1', csv());
    expect(xhr().headers.authorization).toBeUndefined();
    xhr().answer(200, { data: { created: 1, updated: 0 } });
    await expect(pending).resolves.toEqual({ created: 1, updated: 0 });
  });

  it('a 422 of the commit with issues → ImportRejectedError with the message, field errors and issues', async () => {
    const pending = api().commit('k1', csv());
    const issue = { severity: 'ERROR', location: 'fila 4', lot_code: null, field: 'area', message: 'Falta el área' };
    xhr().answer(422, {
      message: 'El archivo tiene 1 error; no se importó ningún lote',
      errors: { file: ['fila 4: Falta el área'] },
      issues: [issue],
    });
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportRejectedError);
    expect(error).toMatchObject({
      status: 422,
      message: 'El archivo tiene 1 error; no se importó ningún lote',
      issues: { file: ['fila 4: Falta el área'] },
      importIssues: [issue],
    });
  });

  it('a 422 without issues (missing file) → ApiError with the server message and field errors', async () => {
    const pending = api().preview('k1', csv());
    xhr().answer(422, { message: 'El archivo es obligatorio', errors: { file: ['El archivo es obligatorio'] } });
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(ImportRejectedError);
    expect(error).toMatchObject({ status: 422, message: 'El archivo es obligatorio', issues: { file: ['El archivo es obligatorio'] } });
  });

  it('an unreadable error answer, a network failure and an unexpected 200 body are ApiErrors too', async () => {
    const html = api().preview('k1', csv());
    xhr().answer(502, '<html>Bad gateway</html>');
    await expect(html).rejects.toMatchObject({ status: 502, message: 'Error 502' });

    const offline = api().preview('k1', csv());
    xhr().dispatchEvent(new ProgressEvent('error'));
    await expect(offline).rejects.toMatchObject({ status: 0, message: NETWORK_ERROR_MESSAGE });

    const odd = api().commit('k1', csv());
    xhr().answer(200, { data: { created: 'many' } });
    await expect(odd).rejects.toMatchObject({ status: 0, message: 'Respuesta inesperada del servidor' });
  });

  it('aborting the signal aborts the XMLHttpRequest and rejects with an AbortError', async () => {
    const controller = new AbortController();
    const onProgress = vi.fn();
    const pending = api().preview('k1', csv(), null, { onProgress, signal: controller.signal });
    xhr().progress(100, 1000);
    controller.abort();
    expect(xhr().aborted).toBe(true);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(onProgress).toHaveBeenCalledTimes(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(api().commit('k1', csv(), null, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(FakeXhr.last).toBeNull();
  });
});
