/**
 * Plan image validation (issue "Proyectos": the subdivision's plan, PNG or JPEG ≤ PLAN_MAX_BYTES).
 * The type is detected from the bytes, never from the file name; the size in pixels is read from
 * the PNG IHDR chunk or the JPEG SOFn marker.
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

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PNG: signature, then the IHDR chunk whose data starts with width and height (big-endian u32). */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Start-of-frame markers carrying the image size (SOF0–SOF15 except DHT, JPG and DAC). */
const JPEG_SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** JPEG: walks the marker segments up to the first SOFn (height then width, big-endian u16). */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / start of scan before any SOF
    const length = bytes.readUInt16BE(offset + 2);
    if (length < 2) return null;
    if (JPEG_SOF.has(marker)) {
      if (offset + 9 > bytes.length) return null;
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return null;
}

/**
 * Recognises a PNG or JPEG by its magic numbers and reads its size.
 * @returns null when `bytes` is neither, or its header does not give a positive size.
 */
export function readPlanImage(bytes: Buffer): PlanImageInfo | null {
  let contentType: PlanImageInfo['contentType'];
  let size: { width: number; height: number } | null;
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) {
    contentType = 'image/png';
    size = pngSize(bytes);
  } else if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    contentType = 'image/jpeg';
    size = jpegSize(bytes);
  } else {
    return null;
  }
  if (!size || size.width < 1 || size.height < 1) return null;
  return { contentType, ...size };
}
