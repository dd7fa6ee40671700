import { detectImageType, imageSize } from '../../platform/image-type';

/**
 * Plan image validation (issue "Proyectos": the subdivision's plan, PNG or JPEG ≤ PLAN_MAX_BYTES).
 * The type is detected from the bytes, never from the file name; the size in pixels is read from
 * the PNG IHDR chunk or the JPEG SOFn marker (server/platform/image-type.ts, shared with vouchers,
 * QRs and the logo).
 */

/** Spanish messages of the plan upload (all answered as 422 on `file`). */
export const PLAN_MESSAGES = {
  missing: 'Adjunte la imagen del plano en el campo "file" (multipart/form-data)',
  tooLarge: 'El plano debe pesar como máximo 5 MB',
  notImage: 'El plano debe ser una imagen PNG o JPEG',
  unreadable: 'No se pudo leer el tamaño de la imagen del plano',
  noPlan: 'La lotización no tiene plano',
  tooManyPixels: (width: number, height: number) =>
    `El plano mide ${width} × ${height} píxeles: el máximo es ${PLAN_MAX_SIDE_PX} píxeles por lado y ${PLAN_MAX_PIXELS / 1_000_000} megapíxeles en total`,
} as const;

/**
 * Largest plan side, in pixels (issue 11 item 15: a 45-byte PNG declaring 2 147 483 647² pixels
 * was accepted, and browsers decode the whole bitmap to draw it). 16 384 is the largest canvas
 * side every current browser accepts.
 */
export const PLAN_MAX_SIDE_PX = 16_384;
/** Largest plan area in pixels (64 MP ≈ 256 MB decoded as RGBA; a scanned A0 plan at 200 dpi is ~ 60 MP). */
export const PLAN_MAX_PIXELS = 64_000_000;

/** True when the plan's real dimensions are within {@link PLAN_MAX_SIDE_PX} and {@link PLAN_MAX_PIXELS}. */
export function planSizeAllowed({ width, height }: { width: number; height: number }): boolean {
  return width <= PLAN_MAX_SIDE_PX && height <= PLAN_MAX_SIDE_PX && width * height <= PLAN_MAX_PIXELS;
}

/** A recognised plan image. */
export interface PlanImageInfo {
  contentType: 'image/png' | 'image/jpeg';
  /** Pixels. */
  width: number;
  /** Pixels. */
  height: number;
}

/**
 * Recognises a PNG or JPEG by its magic numbers and reads its size.
 * @returns null when `bytes` is neither, or its header does not give a positive size.
 */
export function readPlanImage(bytes: Buffer): PlanImageInfo | null {
  const contentType = detectImageType(bytes, ['image/png', 'image/jpeg'] as const);
  const size = contentType && imageSize(bytes, contentType);
  return contentType && size ? { contentType, ...size } : null;
}
