/** Logo validation: the type is detected from the bytes; SVGs with active content are rejected. */

/** Spanish messages of the logo upload. */
export const LOGO_MESSAGES = {
  tooLarge: 'El logo debe pesar como máximo 1 MB',
  notImage: 'El logo debe ser una imagen PNG, JPEG o SVG',
  unsafeSvg: 'El SVG contiene scripts o contenido activo y no se acepta',
  missing: 'Adjunte el logo en el campo "logo" (multipart/form-data)',
  saved: 'Logo actualizado',
} as const;

/**
 * Markup an SVG logo may not contain: scripts, event handlers, javascript:/data: URLs, embedded
 * HTML (foreignObject), external references (<use href="http…">, <image>, xlink to a URL), DTDs and
 * entities, stylesheets imports. Rejecting (rather than rewriting) keeps the stored file exactly
 * what the administrator uploaded.
 */
const UNSAFE_SVG = [
  /<\s*script/i,
  /\son[a-z]+\s*=/i,
  /javascript\s*:/i,
  /<\s*foreignObject/i,
  /<!DOCTYPE|<!ENTITY/i,
  /<\s*(iframe|embed|object|image|use|a)\b/i,
  /href\s*=\s*["']\s*(?!#)/i,
  /@import|url\s*\(\s*["']?\s*(?!#)/i,
  /data\s*:\s*text\/html/i,
];

/** The image type of `bytes` (PNG/JPEG magic numbers, or an SVG document), else null. */
export function detectLogoType(bytes: Buffer): 'image/png' | 'image/jpeg' | 'image/svg+xml' | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = bytes.subarray(0, 2048).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(head)) return 'image/svg+xml';
  return null;
}

/** True when an SVG's text contains none of the unsafe constructs. */
export function isSafeSvg(bytes: Buffer): boolean {
  const text = bytes.toString('utf8');
  return !UNSAFE_SVG.some((pattern) => pattern.test(text));
}
