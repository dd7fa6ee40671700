import type { TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import { formatDate } from '../../../src/lib/dates';
import { formatMoney } from '../../../src/lib/money';
import { FOURTH_CATEGORY_THRESHOLD_CENTS, FOURTH_CATEGORY_WITHHOLDING_BP } from '../../../src/lib/administracion/commission-amounts';
import { COMMISSION_ROLE_LABELS, SETTLEMENT_STATE_LABELS, type SettlementDetail } from '../../../src/schemas/administracion/commissions';
import { logoImage, PDF_FONT, renderPdf, renderWithIssuer, type PdfIssuer } from '../../platform/pdf';

/**
 * One agent's liquidation of commissions as a PDF (docs/domain.md "Commissions"), made with pdfmake
 * on the documents' pool like the receipts (server/modules/finanzas/receipt-pdf.ts): the settlement's
 * number, period and state, the agent, one row per line (sale, lot, role, tranche, amount; REVERTIDA
 * lines negative), the gross, the 4th-category withholding as its own line when it applies, and the
 * net to pay.
 */

/**
 * Renders `settlement` narrowed to one agent (its `agents` holds that agent, its `lines` theirs).
 * @returns the PDF bytes.
 */
export function renderSettlementPdf(settlement: SettlementDetail, issuer: PdfIssuer): Promise<Buffer> {
  return renderWithIssuer(issuer, (readable) => render(settlement, readable));
}

async function render(s: SettlementDetail, issuer: PdfIssuer): Promise<Buffer> {
  const money = (cents: number) => formatMoney(cents, s.currency);
  const agent = s.agents[0];
  const logo = logoImage(issuer, [100, 50]);
  const right = (text: string, bold = false) => ({ text, alignment: 'right' as const, bold });
  const totals: TableCell[][] = agent
    ? [
        [{ text: 'Total comisiones', bold: true, colSpan: 5 }, {}, {}, {}, {}, right(money(agent.gross), true)],
        ...(agent.withholding > 0
          ? [
              [
                {
                  text: `Retención de 4.ª categoría (${FOURTH_CATEGORY_WITHHOLDING_BP / 100} %: recibo por honorarios mayor a ${formatMoney(FOURTH_CATEGORY_THRESHOLD_CENTS, 'PEN')})`,
                  colSpan: 5,
                },
                {},
                {},
                {},
                {},
                right(`− ${money(agent.withholding)}`),
              ] as TableCell[],
            ]
          : []),
        [{ text: 'Neto a pagar', bold: true, colSpan: 5 }, {}, {}, {}, {}, right(money(agent.net), true)],
      ]
    : [];
  const definition: TDocumentDefinitions = {
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 48],
    info: { title: `Liquidación ${s.number}`, author: issuer.business_name },
    defaultStyle: { font: PDF_FONT, fontSize: 9 },
    styles: {
      title: { fontSize: 14, bold: true },
      label: { color: '#5f6b7c' },
      th: { bold: true, fillColor: '#eef1f4' },
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
            ],
            alignment: 'right',
          },
        ],
      },
      { text: `Liquidación de comisiones ${s.number}`, style: 'title', margin: [0, 10, 0, 2] },
      {
        text: `Periodo del ${formatDate(s.period_from)} al ${formatDate(s.period_to)} · ${SETTLEMENT_STATE_LABELS[s.state]}${
          s.paid_on ? ` el ${formatDate(s.paid_on)} (operación ${s.operation_number ?? ''})` : ''
        }`,
        style: 'label',
      },
      {
        text: [
          { text: 'Asesor: ', style: 'label' },
          { text: agent?.agent.name ?? '', bold: true },
          agent?.issues_fee_receipts ? ' · emite recibos por honorarios' : '',
        ],
        margin: [0, 8, 0, 8],
      },
      {
        table: {
          headerRows: 1,
          widths: ['auto', 'auto', '*', 'auto', 'auto', 'auto'],
          body: [
            ['Venta', 'Lote', 'Lotización', 'Rol', 'Tramo', 'Monto'].map((h, i) => ({
              text: h,
              style: 'th',
              alignment: i === 5 ? 'right' : 'left',
            })),
            ...s.lines.map((l) => [
              l.sale.number,
              l.sale.lot_code,
              l.sale.subdivision_name,
              `${COMMISSION_ROLE_LABELS[l.role]}${l.state === 'REVERTIDA' ? ' (reversión)' : ''}`,
              `${l.tranche}/${l.tranche_count}`,
              right(money(l.amount)),
            ]),
            ...totals,
          ],
        },
        layout: 'lightHorizontalLines',
      },
    ],
  };
  return renderPdf(definition);
}
