import type { Content, ContentText, TDocumentDefinitions, TableCell } from 'pdfmake/interfaces';
import { CONTRACT_VARIABLES_BY_KEY, type TemplateNode } from '../../../src/schemas/administracion/contract-templates';
import { logoImage, PDF_FONT, renderPdf, renderWithIssuer, type PdfIssuer } from '../../platform/pdf';

/**
 * A contract's PDF (docs/domain.md "Contracts"): the resolved document (server/modules/
 * administracion/contract-document.ts) as a pdfmake definition — A4, the company's logo and name
 * at the top of the first page, headings 1–3, bold / italic / underline, numbered clauses
 * (`orderedList`, nested lists too), bullet lists, tables (colspan honoured, rows padded to the
 * widest), text alignment, page breaks, a rule, and "Página n de m" with the contract's number at
 * the foot of every page. Rendered on the documents' worker pool (task 'pdf.contract'), never on
 * the event loop.
 */

/** What the worker receives. */
export interface ContractPdfInput {
  /** The resolved document (every variable replaced; a leftover variable prints as its label in brackets). */
  doc: TemplateNode;
  issuer: PdfIssuer;
  /** "C-2026-000123" (the foot and the PDF's title); empty for a draft. */
  number: string;
  /** Title of the PDF's metadata (e.g. "Compraventa a plazos"). */
  title: string;
}

type Inline = ContentText | string;
type Alignment = 'left' | 'center' | 'right' | 'justify';

const ALIGNMENTS: ReadonlySet<string> = new Set(['left', 'center', 'right', 'justify']);
const alignmentOf = (node: TemplateNode): Alignment | undefined => {
  const value = node.attrs?.textAlign;
  return typeof value === 'string' && ALIGNMENTS.has(value) ? (value as Alignment) : undefined;
};

/** A text node (or a leftover variable) with its marks. */
function inlineOf(node: TemplateNode): Inline[] {
  if (node.type === 'hardBreak') return ['\n'];
  const text =
    node.type === 'text'
      ? (node.text ?? '')
      : node.type === 'variable'
        ? `[${CONTRACT_VARIABLES_BY_KEY.get(String(node.attrs?.key ?? ''))?.label ?? String(node.attrs?.key ?? '')}]`
        : '';
  if (text === '') return [];
  const marks = new Set((node.marks ?? []).map((m) => m.type));
  if (marks.size === 0) return [text];
  return [
    {
      text,
      ...(marks.has('bold') ? { bold: true } : {}),
      ...(marks.has('italic') ? { italics: true } : {}),
      ...(marks.has('underline') ? { decoration: 'underline' as const } : {}),
    },
  ];
}

/**
 * The inline content of a text block: adjacent unmarked runs merged, and a single plain run as a
 * string (pdfmake lays out a string faster than an array of inlines: a 360-row schedule is
 * 1 440 cells).
 */
function inlines(node: TemplateNode): Inline[] | string {
  const merged: Inline[] = [];
  for (const part of (node.content ?? []).flatMap(inlineOf)) {
    const last = merged.at(-1);
    if (typeof part === 'string' && typeof last === 'string') merged[merged.length - 1] = last + part;
    else merged.push(part);
  }
  return merged.length === 1 && typeof merged[0] === 'string' ? merged[0] : merged;
}

/** A table node as a pdfmake table. */
function tableOf(node: TemplateNode): Content {
  const rows = (node.content ?? []).filter((r) => r.type === 'tableRow');
  const body: TableCell[][] = rows.map((row) =>
    (row.content ?? []).flatMap((cell) => {
      const span = Math.max(1, Math.min(50, Number(cell.attrs?.colspan ?? 1) || 1));
      const children = cell.content ?? [];
      const only = children.length === 1 && children[0]!.type === 'paragraph' ? children[0]! : null;
      const header = cell.type === 'tableHeader' ? { bold: true, fillColor: '#eef1f4' } : {};
      const spanned = span > 1 ? { colSpan: span } : {};
      // A cell of one paragraph (every schedule cell) is a plain text cell: a stack per cell made a
      // 360-row schedule twice as slow to lay out.
      const alignment = only ? alignmentOf(only) : undefined;
      const stack = only ? [] : blocks(children, true);
      const content: TableCell = only
        ? { text: inlines(only), ...(alignment ? { alignment } : {}), ...header, ...spanned }
        : { stack: stack.length > 0 ? stack : [''], ...header, ...spanned };
      return [content, ...Array.from({ length: span - 1 }, () => ({}) as TableCell)];
    }),
  );
  const columns = Math.max(1, ...body.map((r) => r.length));
  for (const row of body) while (row.length < columns) row.push('');
  if (body.length === 0) return { text: '' };
  let headerRows = 0;
  while (headerRows < rows.length && (rows[headerRows]!.content ?? []).every((c) => c.type === 'tableHeader')) headerRows += 1;
  return {
    table: {
      headerRows: headerRows < body.length ? headerRows : 0,
      widths: Array.from({ length: columns }, () => '*'),
      body,
      dontBreakRows: true,
    },
    layout: 'lightHorizontalLines',
    fontSize: 9,
    margin: [0, 4, 0, 8],
  };
}

/** Block nodes as pdfmake content; `tight` (inside table cells and list items) drops the paragraphs' bottom margin. */
function blocks(nodes: readonly TemplateNode[], tight = false): Content[] {
  const out: Content[] = [];
  for (const node of nodes) {
    switch (node.type) {
      case 'paragraph': {
        const text = inlines(node);
        const alignment = alignmentOf(node);
        out.push({ text: text.length > 0 ? text : ' ', ...(alignment ? { alignment } : {}), margin: [0, 0, 0, tight ? 2 : 6] });
        break;
      }
      case 'heading': {
        const level = Math.max(1, Math.min(3, Number(node.attrs?.level ?? 1) || 1));
        const alignment = alignmentOf(node);
        out.push({ text: inlines(node), style: `h${level}`, ...(alignment ? { alignment } : {}) });
        break;
      }
      case 'orderedList': {
        const start = Number(node.attrs?.start ?? 1);
        out.push({
          ol: (node.content ?? []).map((item) => ({ stack: blocks(item.content ?? [], true) })),
          ...(Number.isInteger(start) && start > 1 ? { start } : {}),
          margin: [0, 0, 0, 6],
        });
        break;
      }
      case 'bulletList':
        out.push({ ul: (node.content ?? []).map((item) => ({ stack: blocks(item.content ?? [], true) })), margin: [0, 0, 0, 6] });
        break;
      case 'listItem':
        out.push({ stack: blocks(node.content ?? [], true) });
        break;
      case 'table':
        out.push(tableOf(node));
        break;
      case 'pageBreak':
        out.push({ text: '', pageBreak: 'after' });
        break;
      case 'horizontalRule':
        out.push({ canvas: [{ type: 'line', x1: 0, y1: 0, x2: 515, y2: 0, lineWidth: 0.5, lineColor: '#8f99a8' }], margin: [0, 4, 0, 8] });
        break;
      case 'text':
      case 'variable':
      case 'hardBreak':
        out.push({ text: inlineOf(node) });
        break;
      default:
        // doc, or a row/cell out of place: its children.
        out.push(...blocks(node.content ?? [], tight));
    }
  }
  return out;
}

/** The pdfmake definition of a contract (exported for the tests and the bench). */
export function contractPdfDefinition(input: ContractPdfInput): TDocumentDefinitions {
  const { issuer } = input;
  const logo = logoImage(issuer, [120, 50]);
  return {
    pageSize: 'A4',
    pageMargins: [56, 48, 56, 56],
    info: { title: [input.title, input.number].filter(Boolean).join(' '), author: issuer.business_name },
    defaultStyle: { font: PDF_FONT, fontSize: 10, lineHeight: 1.25, alignment: 'justify' },
    styles: {
      h1: { fontSize: 15, bold: true, alignment: 'center', margin: [0, 6, 0, 10] },
      h2: { fontSize: 12, bold: true, margin: [0, 8, 0, 6] },
      h3: { fontSize: 10.5, bold: true, margin: [0, 6, 0, 4] },
    },
    footer: (currentPage: number, pageCount: number) => ({
      columns: [
        { text: input.number, alignment: 'left' },
        { text: `Página ${currentPage} de ${pageCount}`, alignment: 'right' },
      ],
      margin: [56, 16, 56, 0],
      fontSize: 8,
      color: '#5f6b7c',
    }),
    content: [
      {
        columns: [
          logo ?? { text: '' },
          {
            width: '*',
            stack: [{ text: issuer.business_name, bold: true }, `RUC ${issuer.ruc}`, ...(input.number ? [`Contrato ${input.number}`] : [])],
            alignment: 'right',
            fontSize: 8,
          },
        ],
        margin: [0, 0, 0, 12],
      },
      ...blocks([input.doc]),
    ],
  };
}

/**
 * Renders the contract's PDF. A logo pdfkit cannot read is dropped (the document is kept).
 * @returns the PDF bytes.
 */
export function renderContractPdf(input: ContractPdfInput): Promise<Buffer> {
  return renderWithIssuer(input.issuer, (issuer) => renderPdf(contractPdfDefinition({ ...input, issuer })));
}
