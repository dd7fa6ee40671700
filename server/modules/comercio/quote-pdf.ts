import { logoImage, PDF_FONT, renderPdf, renderWithIssuer, type PdfIssuer } from '../../platform/pdf';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { QUOTE_METHOD_LABELS, QUOTE_STATUS_LABELS, type Quote } from '../../../src/schemas/comercio/quotes';
import { formatArea, formatMoney } from '../../../src/lib/money';
import { formatDate } from '../../../src/lib/dates';
import { creditCost, formatRatePercent } from '../../../src/lib/comercio/credit-cost';

/**
 * The PDF of a quote (issue "CRM and sales": "a PDF to send — company logo, lot, conditions,
 * schedule; pdfmake or @react-pdf/renderer"), made with pdfmake on the server from the quote as
 * the API answers it. Fonts: PDF's standard Helvetica (WinAnsi: Spanish accents and ñ, no font
 * files). pdfmake may read neither URLs nor local files: every image is passed as a data URL.
 */

/** The company block of the PDF header (server/platform/pdf.ts). */
export type QuoteIssuer = PdfIssuer;

/** The conditions printed under the schedule. */
export const QUOTE_PDF_CONDITIONS = [
  'Cotización referencial, válida hasta la fecha indicada; los precios pueden variar después de ella.',
  'El lote se reserva solo con una separación pagada; esta cotización no separa el lote.',
  'La cuota inicial se paga en las fechas indicadas; las cuotas mensuales vencen en las fechas del cronograma.',
  'Los montos están expresados en la moneda de la lotización; el cronograma definitivo se fija en el contrato.',
];

/**
 * Renders the quote as a PDF (A4): header with the company, the quote's number, dates and status;
 * customer and lot; the price breakdown (with the TEA and TCEA of a financed plan); the down payment parts; the schedule; the conditions.
 * @returns the PDF bytes.
 */
export function renderQuotePdf(quote: Quote, issuer: QuoteIssuer): Promise<Buffer> {
  return renderWithIssuer(issuer, (readable) => render(quote, readable));
}

async function render(quote: Quote, issuer: QuoteIssuer): Promise<Buffer> {
  const money = (cents: number) => formatMoney(cents, quote.currency);
  const logo = logoImage(issuer, [120, 60]);
  const row = (label: string, value: string, bold = false): Content[] => [
    { text: label, style: 'label' },
    { text: value, alignment: 'right', bold },
  ];
  // TEA and TCEA (docs/domain.md "Credit cost: TEA and TCEA"): the same function as the screens.
  const cost = creditCost({
    method: quote.method,
    monthlyRatePercent: quote.monthly_rate_percent,
    financedCents: quote.financed,
    instalmentsCents: quote.schedule.map((r) => r.amount),
  });
  const schedule: Content =
    quote.schedule.length > 0
      ? {
          table: {
            headerRows: 1,
            widths: ['auto', 'auto', '*', '*', '*', '*'],
            body: [
              ['N.º', 'Vence', 'Cuota', 'Capital', 'Interés', 'Saldo'].map((h, i) => ({
                text: h,
                style: 'th',
                alignment: i >= 2 ? ('right' as const) : ('left' as const),
              })),
              ...quote.schedule.map((r) => [
                String(r.number),
                formatDate(r.due_date),
                { text: money(r.amount), alignment: 'right' as const },
                { text: money(r.capital), alignment: 'right' as const },
                { text: money(r.interest), alignment: 'right' as const },
                { text: money(r.balance), alignment: 'right' as const },
              ]),
            ],
          },
          layout: 'lightHorizontalLines',
          fontSize: 8,
        }
      : { text: 'Pago al contado: sin cronograma de cuotas.', italics: true };
  const definition: TDocumentDefinitions = {
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 50],
    info: { title: `Cotización ${quote.number}`, author: issuer.business_name, subject: `Lote ${quote.lot.code}` },
    defaultStyle: { font: PDF_FONT, fontSize: 9 },
    styles: {
      title: { fontSize: 16, bold: true },
      h2: { fontSize: 11, bold: true, margin: [0, 12, 0, 4] },
      label: { color: '#5f6b7c' },
      th: { bold: true, fillColor: '#eef1f4' },
    },
    footer: (page, pages) => ({
      text: `${issuer.business_name} · RUC ${issuer.ruc} · Página ${page} de ${pages}`,
      alignment: 'center',
      fontSize: 7,
      color: '#5f6b7c',
    }),
    content: [
      {
        columns: [
          logo ?? { text: '' },
          {
            width: '*',
            stack: [
              { text: issuer.business_name, bold: true, fontSize: 11 },
              `RUC ${issuer.ruc}`,
              ...(issuer.address ? [issuer.address] : []),
              [issuer.phone, issuer.email].filter(Boolean).join(' · '),
            ],
            alignment: 'right',
          },
        ],
      },
      { text: `Cotización ${quote.number}`, style: 'title', margin: [0, 12, 0, 2] },
      {
        text: `Emitida el ${formatDate(quote.created_at)} · válida hasta el ${formatDate(quote.valid_until)} · ${QUOTE_STATUS_LABELS[quote.status]}`,
        style: 'label',
      },
      {
        columns: [
          {
            stack: [
              { text: 'Cliente', style: 'h2' },
              quote.customer.display_name,
              ...(quote.customer.document_number ? [`Documento ${quote.customer.document_number}`] : []),
              ...(quote.agent ? [{ text: `Asesor: ${quote.agent.name} ${quote.agent.surname}`, style: 'label' }] : []),
            ],
          },
          {
            stack: [
              { text: 'Lote', style: 'h2' },
              `${quote.lot.code} · ${quote.lot.subdivision_name}`,
              ...(quote.lot.area_m2 !== null ? [`Área ${formatArea(quote.lot.area_m2)}`] : []),
            ],
          },
        ],
      },
      { text: 'Precio y forma de pago', style: 'h2' },
      {
        table: {
          widths: ['*', 'auto'],
          body: [
            row('Precio de lista', money(quote.list_price)),
            row('Descuento', money(quote.discount)),
            row('Precio final', money(quote.final_price), true),
            row(
              `Cuota inicial${quote.down_payment_parts > 1 ? ` (${quote.down_payment_parts} partes sin interés)` : ''}`,
              money(quote.down_payment),
            ),
            row('Saldo a financiar', money(quote.financed)),
            row(
              'Cuotas',
              quote.instalments > 0
                ? `${quote.instalments} · ${QUOTE_METHOD_LABELS[quote.method as keyof typeof QUOTE_METHOD_LABELS] ?? quote.method} · ${quote.monthly_rate_percent} % mensual`
                : 'Al contado',
            ),
            row('Intereses', money(quote.total_interest)),
            ...(cost
              ? [
                  row('TEA (tasa efectiva anual)', formatRatePercent(cost.tea)),
                  row('TCEA (tasa de costo efectivo anual)', formatRatePercent(cost.tcea)),
                ]
              : []),
            row('Total a pagar', money(quote.total_to_pay), true),
          ],
        },
        layout: 'noBorders',
      },
      ...(quote.down_payment_schedule.length > 1
        ? [
            { text: 'Cuota inicial', style: 'h2' } as Content,
            {
              ul: quote.down_payment_schedule.map((p) => `Parte ${p.number}: ${money(p.amount)} el ${formatDate(p.due_date)}`),
            } as Content,
          ]
        : []),
      { text: 'Cronograma', style: 'h2' },
      schedule,
      { text: 'Condiciones', style: 'h2' },
      { ul: QUOTE_PDF_CONDITIONS, fontSize: 8 },
    ],
  };
  return renderPdf(definition);
}
