/**
 * The type of an uploaded image read from its bytes — never from the file name or the declared
 * type (issue 16 "Voucher uploads: only images (sniffed)"). Each format is recognised by its
 * signature and the start of its first structure, so a text file renamed .png is refused:
 * - PNG: the 8-byte signature followed by the IHDR chunk (PNG spec §5.2, §11.2.2);
 * - JPEG: SOI (FF D8) followed by a marker (FF xx) (ITU T.81 Annex B);
 * - WebP: "RIFF" size "WEBP" followed by a VP8 / VP8L / VP8X chunk (RFC 9649 §2.5).
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
