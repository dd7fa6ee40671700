import { detectImageType } from '../../platform/image-type';

/**
 * The wallet QR image's type, read from its bytes (never from the file name or the declared
 * type) by server/platform/image-type.ts: a PNG (signature and IHDR chunk) or a JPEG (SOI and a
 * marker).
 */

/** `image/png`, `image/jpeg`, or null when `bytes` is neither. */
export function detectQrType(bytes: Buffer): 'image/png' | 'image/jpeg' | null {
  return detectImageType(bytes, ['image/png', 'image/jpeg'] as const);
}
