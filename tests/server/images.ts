/**
 * A PNG header (signature + IHDR) declaring `width` × `height` pixels, padded with zeros to `size`
 * bytes (at least the 33-byte header): enough for the server's image sniffing and dimension checks.
 */
export function png(width: number, height: number, size = 64): Buffer {
  const head = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  head[24] = 8;
  head[25] = 6;
  return Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length))]);
}

/** A real 1 × 1 PNG (decodable: a logo must decode, docs/security.md 30.6). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
