import type { DOMPurify as Purifier } from 'dompurify';
import { SaxesParser } from 'saxes';
import { WorkQueue } from '../../auth/password-queue';
import { detectImageType, imageSize, type ImageSize, type PixelLimits } from '../../platform/image-type';

/**
 * Logo validation: the type is detected from the bytes; an SVG is sanitised with DOMPurify (its
 * SVG profile) on a jsdom window and stored as DOMPurify's output (issue 11 item 13), after a
 * streaming count of its elements and nesting (docs/security.md 30.5: 20 000 nested groups froze
 * the server for six minutes); a PNG or JPEG is at most {@link LOGO_PIXEL_LIMITS} (30.6). Every
 * logo gets a small PNG copy for the PDFs ({@link logoPdfCopy}).
 */

/** The largest raster logo: 2 000 px a side (a logo is shown at most 200 px wide; PDFs print it ≤ 120 pt). */
export const LOGO_PIXEL_LIMITS: PixelLimits = { maxSide: 2_000, maxPixels: 4_000_000 };

/**
 * The largest SVG logo's structure. jsdom + DOMPurify cost grows faster than linearly with nesting
 * (measured: 256 levels 0.13 s, 1 000 levels 0.5 s, 2 000 levels 2 s, 20 000 levels 362 s) and
 * linearly with elements (≈ 0.2–0.4 ms each: 5 000 ≈ 1–2 s); drawing programs nest a logo a few dozen
 * levels deep and draw it with hundreds to a few thousand elements.
 */
export const SVG_LIMITS = { maxDepth: 128, maxElements: 5_000 } as const;

/** Time budget of sanitising one SVG logo on the documents’ pool, in ms (the largest allowed takes 1–2 s idle, ~ 6 s on a loaded 2-core machine). */
export const LOGO_SVG_TIMEOUT_MS = 30_000;

/** Longest side of the PDFs' copy of the logo, in pixels (printed at most 120 × 60 pt: ≥ 300 dpi). */
export const LOGO_PDF_SIDE_PX = 600;

/** Spanish messages of the logo upload. */
export const LOGO_MESSAGES = {
  tooLarge: 'El logo debe pesar como máximo 1 MB',
  notImage: 'El logo debe ser una imagen PNG, JPEG o SVG',
  unsafeSvg: 'El SVG contiene scripts o contenido activo y no se acepta',
  missing: 'Adjunte el logo en el campo "logo" (multipart/form-data)',
  saved: 'Logo actualizado',
  damaged: 'El logo está dañado o no se puede leer: guárdelo nuevamente como PNG, JPEG o SVG',
  tooManyPixels: (size: ImageSize) =>
    `El logo mide ${size.width.toLocaleString('es-PE')} × ${size.height.toLocaleString('es-PE')} píxeles: el máximo es ${LOGO_PIXEL_LIMITS.maxSide.toLocaleString('es-PE')} píxeles por lado`,
  svgTooComplex: `El SVG tiene demasiados elementos o niveles anidados (máximo ${SVG_LIMITS.maxElements.toLocaleString('es-PE')} elementos y ${SVG_LIMITS.maxDepth} niveles): simplifíquelo o guárdelo como PNG`,
  svgTimeout: 'El SVG tardó demasiado en revisarse: simplifíquelo o guárdelo como PNG',
} as const;

/** The image type of `bytes` (PNG/JPEG by server/platform/image-type.ts, or an SVG document), else null. */
export function detectLogoType(bytes: Buffer): 'image/png' | 'image/jpeg' | 'image/svg+xml' | null {
  const raster = detectImageType(bytes, ['image/png', 'image/jpeg'] as const);
  if (raster) return raster;
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
export type SvgSanitation = { ok: true; svg: Buffer } | { ok: false; reason: 'unsafe' | 'notSvg' | 'tooComplex' };

/** Thrown inside the scan to stop it at the first limit passed. */
const OVER_LIMITS = Symbol('over SVG limits');

/**
 * Counts the elements and the deepest nesting of an SVG text with a streaming XML tokenizer (saxes;
 * linear, no tree built), stopping as soon as {@link SVG_LIMITS} is passed. Malformed markup is
 * tokenised as well as it goes (errors ignored): the HTML parser that follows is lenient too, and an
 * unclosed tag only counts deeper.
 * @returns true when the text is within the limits.
 */
export function svgWithinLimits(text: string): boolean {
  const parser = new SaxesParser();
  let depth = 0;
  let elements = 0;
  parser.on('error', () => undefined);
  parser.on('opentag', () => {
    elements += 1;
    depth += 1;
    if (elements > SVG_LIMITS.maxElements || depth > SVG_LIMITS.maxDepth) throw OVER_LIMITS;
  });
  parser.on('closetag', () => {
    depth -= 1;
  });
  try {
    parser.write(text).close();
  } catch (error) {
    if (error === OVER_LIMITS) return false;
    throw error;
  }
  return true;
}

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
 *   `{ ok: false, reason: 'notSvg' }` when no SVG element is left; `{ ok: false, reason:
 *   'tooComplex' }` over {@link SVG_LIMITS} (checked before parsing). Runs on the documents' worker
 *   pool (task `logo.svg`), never on the event loop.
 */
export async function sanitizeSvg(bytes: Buffer): Promise<SvgSanitation> {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (!svgWithinLimits(text)) return { ok: false, reason: 'tooComplex' };
  const { purify, serialize, externalRefusals } = await loadPurifier();
  externalRefusals.length = 0;
  const body = purify.sanitize(text, {
    USE_PROFILES: { svg: true, svgFilters: true },
    ADD_TAGS: ['use'],
    RETURN_DOM: true,
  });
  const refused =
    externalRefusals.length > 0 ||
    purify.removed.some((entry) => refusesLogo('element' in entry ? entry.element.nodeName : (entry.attribute?.name ?? '')));
  if (refused) return { ok: false, reason: 'unsafe' };
  if (!body) return { ok: false, reason: 'notSvg' };
  const svg = [...(body as Element).children].find(
    (element) => element.namespaceURI === 'http://www.w3.org/2000/svg' && element.localName === 'svg',
  );
  if (!svg) return { ok: false, reason: 'notSvg' };
  return { ok: true, svg: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n${serialize(svg)}\n`) };
}

/** Image work on libvips (sharp): one job at a time, 8 waiting (503 beyond), so it takes one thread of libuv's pool at most. */
const imageWork = new WorkQueue(1, 8);

/**
 * The logo as the PDFs print it: a PNG fitting {@link LOGO_PDF_SIDE_PX} × {@link LOGO_PDF_SIDE_PX},
 * made by sharp (libvips) from a PNG, JPEG or sanitised SVG. pdfkit decodes a PNG in JavaScript on
 * the thread that renders the PDF: a 6 000 × 6 000 logo cost 14 s per receipt, this copy a few
 * milliseconds. sharp works on libuv's thread pool, not on the event loop, with its own time limit
 * (10 s) and pixel limit (100 MP: logos stored before the 2 000-px limit are copied too); it is not
 * run on the worker pool because terminating a worker in the middle of a libvips operation can
 * crash the process (docs/decisions.md "Heavy work off the event loop").
 * @returns the PNG bytes, or null when the image cannot be decoded (the PDFs then go without logo).
 * @throws HttpError 503 when 8 image jobs are already waiting.
 */
export async function logoPdfCopy(bytes: Buffer, contentType: string): Promise<Buffer | null> {
  if (contentType !== 'image/png' && contentType !== 'image/jpeg' && contentType !== 'image/svg+xml') return null;
  const { default: sharp } = await import('sharp');
  return imageWork.run(async () => {
    try {
      const options = { limitInputPixels: 100_000_000, failOn: 'error' as const };
      let density: number | undefined;
      if (contentType === 'image/svg+xml') {
        // Drawn at the density that makes its longest side about the copy's (72 dpi = 1 px per px).
        const { width = LOGO_PDF_SIDE_PX, height = LOGO_PDF_SIDE_PX } = await sharp(bytes, options).metadata();
        density = Math.min(100_000, Math.max(1, (72 * LOGO_PDF_SIDE_PX) / Math.max(width, height, 1)));
      }
      return await sharp(bytes, { ...options, ...(density ? { density } : {}) })
        .timeout({ seconds: 10 })
        .rotate() // JPEG orientation
        .resize(LOGO_PDF_SIDE_PX, LOGO_PDF_SIDE_PX, { fit: 'inside', withoutEnlargement: true })
        .png()
        .toBuffer();
    } catch {
      return null;
    }
  });
}

/** A raster logo's declared size, or null when its header gives none. */
export function logoSize(bytes: Buffer, contentType: 'image/png' | 'image/jpeg'): ImageSize | null {
  return imageSize(bytes, contentType);
}
