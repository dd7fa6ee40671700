/**
 * The type of an uploaded image read from its bytes — never from the file name or the declared
 * type (issue 16 "Voucher uploads: only images (sniffed)"). Each format is recognised by its
 * signature and the start of its first structure, so a text file renamed .png is refused:
 * - PNG: the 8-byte signature followed by the IHDR chunk (PNG spec §5.2, §11.2.2);
 * - JPEG: SOI (FF D8) followed by a marker (FF xx) (ITU T.81 Annex B);
 * - WebP: "RIFF" size "WEBP" followed by a VP8 / VP8L / VP8X chunk (RFC 9649 §2.5).
 * Its size in pixels is read from the same headers (PNG IHDR, JPEG SOFn, WebP frame or canvas
 * header) without decoding anything, so a tiny file declaring 65 535 × 65 535 pixels — which a
 * browser or the PDF writer would try to decode — is refused by the caller's {@link PixelLimits}
 * (docs/security.md items 15 and 30.6).
 */

/** Image types this module recognises. */
export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The type of `bytes` among `allowed`, or null when it is none of them (or is truncated before its
 * first structure).
 */
export function detectImageType<T extends ImageType>(bytes: Buffer, allowed: readonly T[]): T | null {
  const found = sniff(bytes);
  return found !== null && (allowed as readonly ImageType[]).includes(found) ? (found as T) : null;
}

function sniff(bytes: Buffer): ImageType | null {
  if (bytes.length >= 16 && bytes.subarray(0, 8).equals(PNG_SIGNATURE) && bytes.toString('latin1', 12, 16) === 'IHDR') return 'image/png';
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (
    bytes.length >= 16 &&
    bytes.toString('latin1', 0, 4) === 'RIFF' &&
    bytes.toString('latin1', 8, 12) === 'WEBP' &&
    /^VP8[ LX]$/.test(bytes.toString('latin1', 12, 16))
  )
    return 'image/webp';
  return null;
}

/** An image's size in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

/** PNG: the IHDR chunk's data starts with width and height (big-endian u32). */
function pngSize(bytes: Buffer): ImageSize | null {
  if (bytes.length < 24 || bytes.readUInt32BE(8) !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Start-of-frame markers carrying the image size (SOF0–SOF15 except DHT, JPG and DAC). */
const JPEG_SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** JPEG: walks the marker segments up to the first SOFn (height then width, big-endian u16). */
function jpegSize(bytes: Buffer): ImageSize | null {
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

/** WebP (RFC 9649 §2.5–2.7): VP8X canvas (24-bit sizes − 1), VP8L header (14-bit sizes − 1) or VP8 key frame (14-bit sizes). */
function webpSize(bytes: Buffer): ImageSize | null {
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8X' && bytes.length >= 30) return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  if (chunk === 'VP8L' && bytes.length >= 25 && bytes[20] === 0x2f) {
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ' && bytes.length >= 30 && bytes[23] === 0x9d && bytes[24] === 0x01 && bytes[25] === 0x2a)
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  return null;
}

/** The size `bytes` of type `type` declare in their header, or null when it cannot be read (truncated, or not that type). */
export function imageSize(bytes: Buffer, type: ImageType): ImageSize | null {
  const size = type === 'image/png' ? pngSize(bytes) : type === 'image/jpeg' ? jpegSize(bytes) : webpSize(bytes);
  return size && size.width >= 1 && size.height >= 1 ? size : null;
}

/** The largest image a use accepts. */
export interface PixelLimits {
  /** Pixels per side. */
  maxSide: number;
  /** Pixels in all (width × height). */
  maxPixels: number;
}

/**
 * Vouchers (payment captures: phone screenshots and photos): the plan's limits, 16 384 px a side and
 * 64 MP in all (a 48 MP phone photo passes; 65 535² does not).
 */
export const VOUCHER_PIXEL_LIMITS: PixelLimits = { maxSide: 16_384, maxPixels: 64_000_000 };
/** Wallet QR images (a QR code or a screenshot of one): 4 096 px a side, 16 MP. */
export const QR_PIXEL_LIMITS: PixelLimits = { maxSide: 4_096, maxPixels: 16_777_216 };

/** True when `size` is within `limits`. */
export function sizeWithin(size: ImageSize, limits: PixelLimits): boolean {
  return size.width <= limits.maxSide && size.height <= limits.maxSide && size.width * size.height <= limits.maxPixels;
}

/** Spanish 422 text of an image over its limits: "{subject} mide W × H píxeles: el máximo es …". */
export function tooManyPixelsMessage(subject: string, size: ImageSize, limits: PixelLimits): string {
  const n = (value: number) => value.toLocaleString('es-PE');
  const total =
    limits.maxPixels >= 1_000_000 ? `${Math.round(limits.maxPixels / 1_000_000)} megapíxeles` : `${n(limits.maxPixels)} píxeles`;
  return `${subject} mide ${n(size.width)} × ${n(size.height)} píxeles: el máximo es ${n(limits.maxSide)} píxeles por lado y ${total} en total`;
}

/**
 * The image's declared size when it is over `limits`, else null (also when the size cannot be read:
 * the type was already sniffed, and a header without a readable size is left to the caller).
 */
export function oversizedImage(bytes: Buffer, type: ImageType, limits: PixelLimits): ImageSize | null {
  const size = imageSize(bytes, type);
  return size && !sizeWithin(size, limits) ? size : null;
}
