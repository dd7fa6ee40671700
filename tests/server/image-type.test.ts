import { describe, expect, it } from 'vitest';
import { detectImageType, imageSize, oversizedImage, tooManyPixelsMessage } from '../../server/platform/image-type';
import { png } from './images';

/** server/platform/image-type.ts: an image's type from its bytes, among the types a route allows. */
describe('detectImageType', () => {
  const all = ['image/png', 'image/jpeg', 'image/webp'] as const;
  const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32, 1)]);
  const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(32)]);

  it('recognises PNG (with its IHDR), JPEG and WebP', () => {
    expect(detectImageType(png(4, 4), all)).toBe('image/png');
    expect(detectImageType(jpeg, all)).toBe('image/jpeg');
    expect(detectImageType(webp, all)).toBe('image/webp');
  });

  it('refuses a bare PNG signature, text, SVG and an empty file', () => {
    expect(detectImageType(png(4, 4).subarray(0, 8), all)).toBeNull();
    expect(detectImageType(Buffer.from('hello, this is not an image'), all)).toBeNull();
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), all)).toBeNull();
    expect(detectImageType(Buffer.alloc(0), all)).toBeNull();
    expect(
      detectImageType(Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(8)]), all),
    ).toBeNull();
  });

  it('answers only the types the caller allows', () => {
    expect(detectImageType(webp, ['image/png', 'image/jpeg'])).toBeNull();
    expect(detectImageType(jpeg, ['image/png'])).toBeNull();
  });
});

/** The declared size read from the headers (docs/security.md 30.6), shared by plans, logos, vouchers and QRs. */
describe('imageSize and oversizedImage', () => {
  /** A WebP of chunk `chunk` with `data` at offset 20. */
  const webp = (chunk: string, data: number[]) => {
    const bytes = Buffer.alloc(40);
    bytes.write('RIFF', 0, 'latin1');
    bytes.write('WEBP', 8, 'latin1');
    bytes.write(chunk, 12, 'latin1');
    Buffer.from(data).copy(bytes, 20);
    return bytes;
  };

  it('reads PNG, JPEG (past its APP segments) and the three WebP headers', () => {
    expect(imageSize(png(640, 480), 'image/png')).toEqual({ width: 640, height: 480 });
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03]);
    expect(imageSize(jpeg, 'image/jpeg')).toEqual({ width: 640, height: 480 });
    // VP8X: 24-bit width − 1 and height − 1 at 24 and 27.
    expect(imageSize(webp('VP8X', [0, 0, 0, 0, 0x7f, 0x02, 0, 0xdf, 0x01, 0]), 'image/webp')).toEqual({ width: 640, height: 480 });
    // VP8L: signature 0x2f, then 14-bit width − 1 and height − 1.
    const bits = 639 | (479 << 14);
    expect(
      imageSize(webp('VP8L', [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >> 24) & 0xff]), 'image/webp'),
    ).toEqual({ width: 640, height: 480 });
    // VP8: frame tag, start code 9d 01 2a, then 14-bit width and height.
    expect(imageSize(webp('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, 0x80, 0x02, 0xe0, 0x01]), 'image/webp')).toEqual({
      width: 640,
      height: 480,
    });
  });

  it('answers the declared size only when it passes the limits; an unreadable size is left to the caller', () => {
    const n = (value: number) => value.toLocaleString('es-PE');
    const limits = { maxSide: 1000, maxPixels: 500_000 };
    expect(oversizedImage(png(1000, 500), 'image/png', limits)).toBeNull();
    expect(oversizedImage(png(1001, 10), 'image/png', limits)).toEqual({ width: 1001, height: 10 });
    expect(oversizedImage(png(800, 800), 'image/png', limits)).toEqual({ width: 800, height: 800 });
    expect(oversizedImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x07, 0x07]), 'image/jpeg', limits)).toBeNull();
    expect(tooManyPixelsMessage('El QR', { width: 65_535, height: 65_535 }, { maxSide: 4096, maxPixels: 16_777_216 })).toBe(
      `El QR mide ${n(65_535)} × ${n(65_535)} píxeles: el máximo es ${n(4_096)} píxeles por lado y 17 megapíxeles en total`,
    );
  });
});
