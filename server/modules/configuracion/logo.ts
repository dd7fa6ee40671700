import type { DOMPurify as Purifier } from 'dompurify';

/**
 * Logo validation: the type is detected from the bytes; an SVG is sanitised with DOMPurify (its
 * SVG profile) on a jsdom window and stored as DOMPurify's output (issue 11 item 13).
 */

/** Spanish messages of the logo upload. */
export const LOGO_MESSAGES = {
  tooLarge: 'El logo debe pesar como máximo 1 MB',
  notImage: 'El logo debe ser una imagen PNG, JPEG o SVG',
  unsafeSvg: 'El SVG contiene scripts o contenido activo y no se acepta',
  missing: 'Adjunte el logo en el campo "logo" (multipart/form-data)',
  saved: 'Logo actualizado',
} as const;

/** The image type of `bytes` (PNG/JPEG magic numbers, or an SVG document), else null. */
export function detectLogoType(bytes: Buffer): 'image/png' | 'image/jpeg' | 'image/svg+xml' | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = bytes
    .subarray(0, 2048)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(head)) return 'image/svg+xml';
  return null;
}

/**
 * Namespace prefixes of drawing programs' own markup (Inkscape, Sodipodi, Sketch, RDF metadata).
 * DOMPurify removes their elements and attributes; that alone does not refuse a logo.
 */
const EDITOR_PREFIXES = new Set(['inkscape', 'sodipodi', 'sketch', 'rdf', 'cc', 'dc', 'xmlns']);
/** A CSS reference to anything but a fragment of the same document (`url(#id)`), or an @import. */
const EXTERNAL_CSS = /@import|url\s*\(\s*["']?\s*(?!["']?#)/i;
/** Raster images an SVG may embed (`<image href="data:…">`). */
const EMBEDDED_IMAGE = /^data:image\/(png|jpe?g|gif|webp);/i;

/** Outcome of {@link sanitizeSvg}. */
export type SvgSanitation = { ok: true; svg: Buffer } | { ok: false; reason: 'unsafe' | 'notSvg' };

let purifier: Promise<{ purify: Purifier; serialize: (node: Node) => string; externalRefusals: string[] }> | undefined;

/** DOMPurify on one jsdom window, loaded on the first SVG (jsdom takes ~0.3 s to load). */
function loadPurifier() {
  purifier ??= (async () => {
    const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
    const { window } = new JSDOM('');
    const purify = createDOMPurify(window);
    const externalRefusals: string[] = [];
    // References may only point inside the document (`#id`) or embed a raster image; CSS may not
    // load anything (in an <img> browsers block it anyway, but a logo opened directly would not).
    purify.addHook('uponSanitizeAttribute', (node, data) => {
      const name = data.attrName.toLowerCase();
      const value = data.attrValue.trim();
      if (name === 'href' || name === 'xlink:href') {
        const local = value.startsWith('#') || (node.nodeName.toLowerCase() === 'image' && EMBEDDED_IMAGE.test(value));
        if (!local) data.keepAttr = false;
      } else if (name === 'style' && EXTERNAL_CSS.test(value)) data.keepAttr = false;
    });
    purify.addHook('uponSanitizeElement', (node, data) => {
      if (data.tagName === 'style' && EXTERNAL_CSS.test(node.textContent ?? '')) {
        externalRefusals.push('style');
        node.textContent = '';
      }
    });
    const serializer = new window.XMLSerializer();
    return { purify, serialize: (node: Node) => serializer.serializeToString(node), externalRefusals };
  })();
  return purifier;
}

/** True when DOMPurify removing this node or attribute means the file held active or external content. */
function refusesLogo(name: string): boolean {
  const lower = name.toLowerCase();
  if (lower === 'body') return false; // DOMPurify's own wrapper
  const prefix = lower.includes(':') ? lower.slice(0, lower.indexOf(':')) : null;
  return prefix === null || !EDITOR_PREFIXES.has(prefix);
}

/**
 * Sanitises an uploaded SVG logo with DOMPurify's SVG (+ filters) profile, parsed by jsdom's HTML
 * parser (which applies the SVG case fix-ups) and serialised back as XML. The result keeps shapes,
 * gradients, filters, text, `<use>` of local ids, CSS without external references and embedded
 * PNG/JPEG/GIF/WebP images.
 * @returns `{ ok: true, svg }` — the bytes to store (an XML declaration + the sanitised `<svg>`);
 *   `{ ok: false, reason: 'unsafe' }` when DOMPurify had to remove anything but drawing-program
 *   metadata (scripts in any namespace or spelling, event handlers including XML Events
 *   `ev:event`, `javascript:` or external links, foreignObject, external CSS…);
 *   `{ ok: false, reason: 'notSvg' }` when no SVG element is left.
 */
export async function sanitizeSvg(bytes: Buffer): Promise<SvgSanitation> {
  const { purify, serialize, externalRefusals } = await loadPurifier();
  externalRefusals.length = 0;
  const body = purify.sanitize(bytes.toString('utf8').replace(/^\uFEFF/, ''), {
    USE_PROFILES: { svg: true, svgFilters: true },
    ADD_TAGS: ['use'],
    RETURN_DOM: true,
  });
  const refused =
    externalRefusals.length > 0 ||
    purify.removed.some((entry) => refusesLogo('element' in entry ? entry.element.nodeName : (entry.attribute?.name ?? '')));
  if (refused) return { ok: false, reason: 'unsafe' };
  const svg = [...(body as Element).children].find(
    (element) => element.namespaceURI === 'http://www.w3.org/2000/svg' && element.localName === 'svg',
  );
  if (!svg) return { ok: false, reason: 'notSvg' };
  return { ok: true, svg: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${serialize(svg)}\n`) };
}
