import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CONTROL_CHARACTERS, CONTROL_CHARACTERS_MESSAGE } from '../../../src/schemas/common';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import {
  IMPORT_MAX_BYTES,
  importPreviewResponseSchema,
  importResolutionsSchema,
  importResultResponseSchema,
  importUseChoicesSchema,
  type ImportResolution,
  type LandUse,
  subdivisionKeyParamsSchema,
} from '../../../src/schemas/proyectos/projects';
import { landUseKey } from '../../../src/lib/proyectos/land-use-words';
import { auditContextOf } from '../../audit/audit';
import { staffWith } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { fieldError } from '../../errors';
import { uploadError } from '../../uploads';
import { MAIN_BASE } from '../../platform/bases';
import { commitImport, findImportSubdivision, previewImport } from './lot-imports.service';
import { landUseChoicesFor } from './lot-import-uses.service';

/** Who may import lots: 'Acceso módulo proyectos' + 'Acceso submódulo lotizaciones' (docs/product.md §6). */
export const LOT_IMPORT_ACCESS = staffWith(MODULE.proyectos, SUBMODULE.lotizaciones);

/** Spanish messages of the upload itself. */
export const UPLOAD_MESSAGES = {
  missing: 'Adjunte el archivo de lotes (CSV, XLSX, GeoJSON o DXF)',
  tooLarge: `El archivo supera el máximo de ${IMPORT_MAX_BYTES / 1024 / 1024} MB`,
  badResolutions: 'Las elecciones sobre los códigos repetidos no son válidas: vuelva a comprobar el archivo',
  badLandUses: 'Los usos elegidos para los valores del archivo no son válidos: vuelva a comprobar el archivo',
  landUseTwice: (label: string) => `El valor "${label}" tiene dos usos elegidos: deje uno`,
} as const;

/** Most bytes of the `resolutions` field (20 000 choices of ~60 bytes). */
const RESOLUTIONS_MAX_BYTES = 2 * 1024 * 1024;

/** The `resolutions` text field: a JSON array of {@link importResolutionsSchema}. @throws HttpError 422 on `resolutions`. */
function parseResolutions(text: string): ImportResolution[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw fieldError('resolutions', UPLOAD_MESSAGES.badResolutions);
  }
  const parsed = importResolutionsSchema.safeParse(json);
  if (!parsed.success) throw fieldError('resolutions', UPLOAD_MESSAGES.badResolutions);
  return parsed.data;
}

/**
 * The `land_uses` text field: a JSON array of {@link importUseChoicesSchema}, as uses by value key
 * (`landUseKey`: accents, case and punctuation ignored).
 * @throws HttpError 422 on `land_uses` when it is not such a list, a label has no letter or digit,
 *   or one value gets two different uses.
 */
function parseLandUses(text: string): Record<string, LandUse> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw fieldError('land_uses', UPLOAD_MESSAGES.badLandUses);
  }
  const parsed = importUseChoicesSchema.safeParse(json);
  if (!parsed.success) throw fieldError('land_uses', UPLOAD_MESSAGES.badLandUses);
  const uses: Record<string, LandUse> = {};
  for (const { label, use } of parsed.data) {
    const key = landUseKey(label);
    if (!key) throw fieldError('land_uses', UPLOAD_MESSAGES.badLandUses);
    if (Object.hasOwn(uses, key) && uses[key] !== use) throw fieldError('land_uses', UPLOAD_MESSAGES.landUseTwice(label));
    uses[key] = use;
  }
  return uses;
}

/**
 * Reads the multipart body: part `file` (≤ {@link IMPORT_MAX_BYTES}), the optional text field
 * `layer` (DXF layer), the optional text field `resolutions` (JSON choices on duplicated codes,
 * issue 13 item 5) and the optional text field `land_uses` (JSON uses of the file's land-use
 * values, docs/import.md "Land use"), in any order.
 * @throws HttpError 422 on `file` when missing, too large, not multipart or malformed (server/uploads.ts);
 *   422 on `resolutions` / `land_uses` when it is not a valid list of choices.
 */
async function readUpload(request: FastifyRequest): Promise<{
  bytes: Buffer;
  filename: string;
  layer: string | null;
  resolutions: ImportResolution[];
  landUses: Record<string, LandUse>;
}> {
  let bytes: Buffer | null = null;
  let filename = '';
  let layer: string | null = null;
  let resolutionsText: string | null = null;
  let landUsesText: string | null = null;
  try {
    for await (const part of request.parts({
      limits: { fileSize: IMPORT_MAX_BYTES, fieldSize: RESOLUTIONS_MAX_BYTES, files: 1, fields: 4, parts: 5 },
    })) {
      if (part.type === 'file') {
        const content = await part.toBuffer();
        if (part.fieldname === 'file') {
          bytes = content;
          filename = part.filename ?? '';
        }
      } else if (part.fieldname === 'layer') {
        layer =
          String(part.value ?? '')
            .trim()
            .slice(0, 255) || null;
        if (layer && CONTROL_CHARACTERS.test(layer)) throw fieldError('layer', CONTROL_CHARACTERS_MESSAGE);
      } else if (part.fieldname === 'resolutions') {
        if (part.valueTruncated) throw fieldError('resolutions', UPLOAD_MESSAGES.badResolutions);
        resolutionsText = String(part.value ?? '');
      } else if (part.fieldname === 'land_uses') {
        if (part.valueTruncated) throw fieldError('land_uses', UPLOAD_MESSAGES.badLandUses);
        landUsesText = String(part.value ?? '');
      }
    }
  } catch (error) {
    throw uploadError(error, 'file', UPLOAD_MESSAGES);
  }
  if (!bytes || bytes.length === 0) throw fieldError('file', UPLOAD_MESSAGES.missing);
  const resolutions = resolutionsText === null || resolutionsText.trim() === '' ? [] : parseResolutions(resolutionsText);
  const landUses = landUsesText === null || landUsesText.trim() === '' ? {} : parseLandUses(landUsesText);
  return { bytes, filename, layer, resolutions, landUses };
}

/**
 * Lot import (issue "Proyectos" → Import; docs/import.md): POST /api/subdivisions/{key}/imports/preview
 * (nothing stored) and POST /api/subdivisions/{key}/imports (re-parsed and re-checked with the same
 * `resolutions` of duplicated codes and `land_uses` applied; any ERROR or a land-use value without
 * a use → 422 `{ message, errors: { file, land_uses? }, issues }`, else one transaction). Bad key → 404.
 */
export function lotImportsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: LOT_IMPORT_ACCESS };
    /** The subdivision of `:key` and the uploaded file checked against it (its overlap limit, the choices sent). */
    const checkUpload = async (request: FastifyRequest<{ Params: { key: string } }>) => {
      const subdivision = await findImportSubdivision(deps.db, deps.ids.decode(request.params.key));
      const upload = await readUpload(request);
      const landUses = await landUseChoicesFor(deps.db, subdivision.id, upload.landUses);
      const parsed = await deps.importChecks.check(upload.bytes, upload.filename, upload.layer, {
        resolutions: upload.resolutions,
        overlapLimitM2: subdivision.overlap_limit_m2,
        landUses,
      });
      return { subdivision, parsed, landUses };
    };

    app.post(
      `${MAIN_BASE}/subdivisions/:key/imports/preview`,
      { config, schema: { params: subdivisionKeyParamsSchema, response: { 200: importPreviewResponseSchema } } },
      async (request) => {
        const { subdivision, parsed } = await checkUpload(request);
        return { data: await previewImport(deps.db, subdivision, parsed) };
      },
    );

    app.post(
      `${MAIN_BASE}/subdivisions/:key/imports`,
      { config, schema: { params: subdivisionKeyParamsSchema, response: { 200: importResultResponseSchema } } },
      async (request) => {
        const { subdivision, parsed, landUses } = await checkUpload(request);
        return { data: await commitImport(deps.db, auditContextOf(request, deps.clock), subdivision, parsed, landUses) };
      },
    );
  };
}
