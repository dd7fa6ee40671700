import { describe, expect, it } from 'vitest';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { PLAN_MAX_PIXELS, PLAN_MAX_SIDE_PX, PLAN_MESSAGES } from '../../server/modules/proyectos/plan-image';
import { createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase, multipartBody } from './harness';
import { png } from './images';

/** Issue 11 item 15: the plan image's real dimensions (from its header) are capped. */

/** A JPEG header (SOI, SOF0) of `width` × `height` pixels. */
function jpeg(width: number, height: number): Buffer {
  const sof = Buffer.alloc(19);
  sof.writeUInt16BE(0xffc0, 0);
  sof.writeUInt16BE(17, 2);
  sof[4] = 8;
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, Buffer.from([0xff, 0xd9])]);
}

function multipart(content: Buffer) {
  return multipartBody({ filename: 'plano.png', contentType: 'image/png', content });
}

describe.each(dialects)('plan image dimensions (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  it('refuses a 45-byte PNG declaring 2 147 483 647² pixels and any side or area past the caps; accepts up to them', async () => {
    const auth = await createSession(db(), await createStaff(db(), { permissions: [MODULE.proyectos, SUBMODULE.lotizaciones] }));
    const { key } = await createSubdivision(db());
    const upload = (content: Buffer) => {
      const body = multipart(content);
      return ctx().app.inject({
        method: 'POST',
        url: `/api/subdivisions/${key}/plan`,
        payload: body.payload,
        headers: { ...body.headers, ...bearer(auth) },
      });
    };
    const refused: Array<[Buffer, number, number]> = [
      [png(2_147_483_647, 2_147_483_647, 45), 2_147_483_647, 2_147_483_647],
      [png(PLAN_MAX_SIDE_PX + 1, 10, 45), PLAN_MAX_SIDE_PX + 1, 10],
      [png(10_000, 10_000, 45), 10_000, 10_000],
      [jpeg(65_535, 65_535), 65_535, 65_535],
    ];
    for (const [content, width, height] of refused) {
      const res = await upload(content);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors).toEqual({ file: [PLAN_MESSAGES.tooManyPixels(width, height)] });
    }
    expect(await db().selectFrom('subdivisions').select('plan_width').where('plan_width', 'is not', null).execute()).toHaveLength(0);
    expect(PLAN_MAX_SIDE_PX * 3900).toBeLessThanOrEqual(PLAN_MAX_PIXELS);
    const ok = await upload(png(PLAN_MAX_SIDE_PX, 3900, 45));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(
      await db().selectFrom('subdivisions').select(['plan_width', 'plan_height']).where('plan_width', 'is not', null).execute(),
    ).toEqual([{ plan_width: PLAN_MAX_SIDE_PX, plan_height: 3900 }]);
  });
});
