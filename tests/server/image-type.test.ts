import { describe, expect, it } from 'vitest';
import { detectImageType } from '../../server/platform/image-type';
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
