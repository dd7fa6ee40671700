/**
 * The wallet QR image's type, read from its bytes (never from the file name or the declared
 * type): PNG by its 8-byte signature, JPEG by its SOI marker and the next marker's 0xFF.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** `image/png`, `image/jpeg`, or null when `bytes` is neither. */
export function detectQrType(bytes: Buffer): 'image/png' | 'image/jpeg' | null {
  if (bytes.length > PNG_SIGNATURE.length && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}
