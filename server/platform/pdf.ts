import type { FastifyReply } from 'fastify';
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

/** The company block of a document's header (the installation's company, configuracion). */
export interface PdfIssuer {
  business_name: string;
  ruc: string;
  address: string | null;
  phone: string | null;
  email: string | null;
  /** PNG or JPEG bytes with their type; other logos (SVG) are left out of PDFs. */
  logo: { contentType: string; data: Buffer } | null;
}

/** The issuer's logo as a pdfmake image (a data URL) fitted in `fit` points, or null when it has none pdfkit reads (PNG, JPEG). */
export function logoImage(issuer: PdfIssuer, fit: [number, number]): { image: string; fit: [number, number] } | null {
  const logo = issuer.logo;
  if (!logo || (logo.contentType !== 'image/png' && logo.contentType !== 'image/jpeg')) return null;
  return { image: `data:${logo.contentType};base64,${logo.data.toString('base64')}`, fit };
}

/**
 * Renders a document with `issuer` in its header: when pdfkit cannot read the logo (a damaged or
 * unusual PNG), the document is rendered again without it — the logo is lost, not the document.
 */
export async function renderWithIssuer(issuer: PdfIssuer, render: (issuer: PdfIssuer) => Promise<Buffer>): Promise<Buffer> {
  if (!issuer.logo) return render(issuer);
  try {
    return await render(issuer);
  } catch {
    return render({ ...issuer, logo: null });
  }
}

/** Sends PDF bytes as a download named `fileName`. */
export function sendPdf(reply: FastifyReply, pdf: { fileName: string; bytes: Buffer }) {
  return reply.type('application/pdf').header('content-disposition', `attachment; filename="${pdf.fileName}"`).send(pdf.bytes);
}
