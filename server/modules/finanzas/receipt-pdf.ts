import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { formatDate, formatDateTime } from '../../../src/lib/dates';
import { formatMoney } from '../../../src/lib/money';
import { amountInWords } from '../../../src/lib/finanzas/amount-in-words';
import { PAYMENT_METHOD_LABELS, type Payment, type PaymentMethod } from '../../../src/schemas/finanzas/payments';
import { logoImage, PDF_FONT, renderPdf, renderWithIssuer, type PdfIssuer } from '../../platform/pdf';

/**
 * The receipt (recibo) of an approved payment as a PDF (issue 16 "Receipts": series + correlative,
 * with the allocation; re-printable), made with pdfmake on the server from the payment as the API
 * answers it. An annulled payment reprints with "ANULADO" and its reason. This is an internal
 * receipt, not a SUNAT electronic document: the seam for electronic invoicing is documented in
 * docs/decisions.md "Payments: receipts".
 */

/**
 * Renders the receipt (A5): issuer, receipt number, payer, what was paid and how with the amount in
 * words ("SON: … CON nn/100 SOLES"), the allocation, and — for a sale — the balance left after
 * this payment (`balanceAfterCents`, céntimos; null/absent: not printed).
 * @returns the PDF bytes.
 */
export function renderReceiptPdf(payment: Payment, issuer: PdfIssuer, balanceAfterCents: number | null = null): Promise<Buffer> {
  return renderWithIssuer(issuer, (readable) => render(payment, readable, balanceAfterCents));
}

async function render(payment: Payment, issuer: PdfIssuer, balanceAfterCents: number | null): Promise<Buffer> {
  const money = (cents: number) => formatMoney(cents, payment.currency);
  const logo = logoImage(issuer, [100, 50]);
  const row = (label: string, value: string): Content[] => [{ text: label, style: 'label' }, { text: value }];
  const target = payment.sale
    ? `Venta ${payment.sale.number} · lote ${payment.sale.lot_code} · ${payment.sale.subdivision_name}`
    : `Separación del lote ${payment.reservation?.lot_code ?? ''} · ${payment.reservation?.subdivision_name ?? ''}`;
  const allocation: Content =
    payment.allocations.length > 0
      ? {
          table: {
            headerRows: 1,
            widths: ['*', 'auto', 'auto', 'auto', 'auto'],
            body: [
              ['Cuota', 'Vence', 'A mora', 'A cuota', 'Total'].map((h, i) => ({
                text: h,
                style: 'th',
                alignment: i >= 2 ? ('right' as const) : ('left' as const),
              })),
              ...payment.allocations.map((a) => [
                a.kind === 'INICIAL' ? `Inicial ${a.number}` : `Cuota ${a.number}`,
                a.due_date ? formatDate(a.due_date) : '',
                { text: money(a.to_late_fee), alignment: 'right' as const },
                { text: money(a.to_capital), alignment: 'right' as const },
                { text: money(a.to_late_fee + a.to_capital), alignment: 'right' as const },
              ]),
            ],
          },
          layout: 'lightHorizontalLines',
          fontSize: 8,
        }
      : { text: payment.sale ? '' : 'Aplicado al monto de la separación.', italics: true };
  const definition: TDocumentDefinitions = {
    pageSize: 'A5',
    pageMargins: [32, 32, 32, 40],
    info: { title: `Recibo ${payment.receipt_number ?? ''}`, author: issuer.business_name },
    defaultStyle: { font: PDF_FONT, fontSize: 9 },
    styles: {
      title: { fontSize: 14, bold: true },
      h2: { fontSize: 10, bold: true, margin: [0, 10, 0, 4] },
      label: { color: '#5f6b7c' },
      th: { bold: true, fillColor: '#eef1f4' },
      void: { fontSize: 18, bold: true, color: '#cd4246' },
    },
    footer: () => ({ text: `${issuer.business_name} · RUC ${issuer.ruc}`, alignment: 'center', fontSize: 7, color: '#5f6b7c' }),
    content: [
      {
        columns: [
          logo ?? { text: '' },
          {
            width: '*',
            stack: [
              { text: issuer.business_name, bold: true, fontSize: 10 },
              `RUC ${issuer.ruc}`,
              ...(issuer.address ? [issuer.address] : []),
              [issuer.phone, issuer.email].filter(Boolean).join(' · '),
            ],
            alignment: 'right',
          },
        ],
      },
      { text: `Recibo ${payment.receipt_number ?? ''}`, style: 'title', margin: [0, 10, 0, 2] },
      { text: `Aprobado el ${payment.reviewed_at ? formatDateTime(payment.reviewed_at) : ''}`, style: 'label' },
      ...(payment.status === 'ANULADO'
        ? [{ text: `ANULADO: ${payment.annul_reason ?? ''}`, style: 'void', margin: [0, 6, 0, 0] } as Content]
        : []),
      {
        table: {
          widths: ['auto', '*'],
          body: [
            row(
              'Cliente',
              `${payment.customer.display_name}${payment.customer.document_number ? ` · ${payment.customer.document_number}` : ''}`,
            ),
            row('Concepto', target),
            row('Fecha de operación', formatDate(payment.operation_date)),
            row('Medio de pago', PAYMENT_METHOD_LABELS[payment.method as PaymentMethod] ?? payment.method),
            ...(payment.destination ? [row('Destino', payment.destination.label)] : []),
            ...(payment.operation_number ? [row('N.º de operación', payment.operation_number)] : []),
            [
              { text: 'Monto recibido', bold: true },
              { text: money(payment.amount), bold: true },
            ],
            [{ text: `SON: ${amountInWords(payment.amount, payment.currency)}`, colSpan: 2, bold: true }, {}],
          ],
        },
        layout: 'noBorders',
        margin: [0, 10, 0, 0],
      },
      { text: 'Aplicación del pago', style: 'h2' },
      allocation,
      ...(payment.sale && balanceAfterCents !== null
        ? [
            {
              text: [
                { text: 'Saldo después de este pago: ', style: 'label' },
                { text: money(balanceAfterCents), bold: true },
              ],
              margin: [0, 8, 0, 0],
            } as Content,
          ]
        : []),
    ],
  };
  return renderPdf(definition);
}
