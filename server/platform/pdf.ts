import pdfmake from 'pdfmake';
import type { TDocumentDefinitions } from 'pdfmake/interfaces';

/**
 * The server's PDFs (quotes, the sales report; docs/dependencies.md "pdfmake"): pdfmake set up once
 * with PDF's standard Helvetica (pdfkit carries its metrics; WinAnsi covers Spanish accents and ñ,
 * no font files). pdfmake may read neither URLs nor local files other than those fonts: every image
 * is passed as a data URL.
 */

/** The font family every document uses (`defaultStyle: { font: PDF_FONT }`). */
export const PDF_FONT = 'Helvetica';
const HELVETICA = { normal: 'Helvetica', bold: 'Helvetica-Bold', italics: 'Helvetica-Oblique', bolditalics: 'Helvetica-BoldOblique' };
const STANDARD_FONTS: ReadonlySet<string> = new Set(Object.values(HELVETICA));
pdfmake.setFonts({ [PDF_FONT]: HELVETICA });
pdfmake.setUrlAccessPolicy(() => false);
pdfmake.setLocalAccessPolicy((path) => STANDARD_FONTS.has(path));

/** Renders a document definition to PDF bytes. @throws what pdfmake throws on a malformed definition. */
export function renderPdf(definition: TDocumentDefinitions): Promise<Buffer> {
  return pdfmake.createPdf(definition).getBuffer();
}
