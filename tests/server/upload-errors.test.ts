import { describe, expect, it } from 'vitest';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { importPreviewResponseSchema } from '../../src/schemas/proyectos/projects';
import { createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { MALFORMED_UPLOAD_MESSAGE } from '../../server/uploads';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * Issue 11 items 6–7: malformed multipart bodies on every upload route, and GeoJSON features that
 * are not objects, are Spanish 422s on the upload field — they were 500s.
 */

const FILE_PART = 'Content-Disposition: form-data; name="FIELD"; filename="a.png"\r\nContent-Type: application/octet-stream\r\n\r\n';

describe.each(dialects)('upload errors (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  async function token(): Promise<string> {
    const staff = await createStaff(db(), {
      permissions: [MODULE.proyectos, SUBMODULE.lotizaciones, MODULE.configuracion, SUBMODULE.empresas],
    });
    return createSession(db(), staff);
  }

  it('no boundary, or no closing boundary: 422 on the file field of the plan, logo and both import routes', async () => {
    const auth = await token();
    const { key } = await createSubdivision(db());
    const routes = [
      { url: '/api/company/logo', field: 'logo' },
      { url: `/api/subdivisions/${key}/plan`, field: 'file' },
      { url: `/api/subdivisions/${key}/imports/preview`, field: 'file' },
      { url: `/api/subdivisions/${key}/imports`, field: 'file' },
    ];
    for (const { url, field } of routes) {
      const noBoundary = await ctx().app.inject({
        method: 'POST',
        url,
        payload: `--x\r\n${FILE_PART.replace('FIELD', field)}abc\r\n--x--\r\n`,
        headers: { 'content-type': 'multipart/form-data', ...bearer(auth) },
      });
      expect(noBoundary.statusCode, `${url} without boundary: ${noBoundary.body}`).toBe(422);
      expect(noBoundary.json()).toEqual({ message: MALFORMED_UPLOAD_MESSAGE, errors: { [field]: [MALFORMED_UPLOAD_MESSAGE] } });

      const unterminated = await ctx().app.inject({
        method: 'POST',
        url,
        payload: `--b\r\n${FILE_PART.replace('FIELD', field)}abc`,
        headers: { 'content-type': 'multipart/form-data; boundary=b', ...bearer(auth) },
      });
      expect(unterminated.statusCode, `${url} unterminated: ${unterminated.body}`).toBe(422);
      expect(unterminated.json()).toEqual({ message: MALFORMED_UPLOAD_MESSAGE, errors: { [field]: [MALFORMED_UPLOAD_MESSAGE] } });
    }
  });

  it('`{"type":"FeatureCollection","features":[null]}`: a located ERROR in the preview, a 422 on import', async () => {
    const auth = await token();
    const { key } = await createSubdivision(db());
    const boundary = 'g';
    const body = (json: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="l.geojson"\r\nContent-Type: application/geo+json\r\n\r\n${json}\r\n--${boundary}--\r\n`;
    const headers = { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(auth) };
    const json = '{"type":"FeatureCollection","features":[null]}';
    const preview = await ctx().app.inject({
      method: 'POST',
      url: `/api/subdivisions/${key}/imports/preview`,
      payload: body(json),
      headers,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const issues = importPreviewResponseSchema.parse(preview.json()).data.issues;
    expect(issues[0]).toMatchObject({ severity: 'ERROR', location: 'elemento 1' });
    const commit = await ctx().app.inject({ method: 'POST', url: `/api/subdivisions/${key}/imports`, payload: body(json), headers });
    expect(commit.statusCode, commit.body).toBe(422);
    expect(commit.json().errors.file[0]).toMatch(/^elemento 1: El elemento no es un Feature de GeoJSON/);
  });
});
