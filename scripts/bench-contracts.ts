/**
 * Contract PDF bench (docs/domain.md "Contracts"; target: a contract with a 360-instalment schedule
 * renders in ≤ 500 ms): the median time of server/modules/administracion/contract-pdf.ts
 * `renderContractPdf` — the work the documents' worker does for an issue — on a compraventa a
 * plazos of twelve clauses whose schedule table has 360 rows, and the same contract with 12 rows
 * as the ratio's base in the same run (ratios compare across machines; the absolute figure is the
 * target's). The document is resolved first by contract-document.ts, as issue does.
 *
 *   npx tsx scripts/bench-contracts.ts        (also part of `npm run bench`)
 */
import { formatMoney } from '../src/lib/money';
import type { ContractValues, TemplateNode } from '../src/schemas/administracion/contract-templates';
import { resolveDocument } from '../server/modules/administracion/contract-document';
import { renderContractPdf } from '../server/modules/administracion/contract-pdf';

const RUNS = 9;
const TARGET_MS = 500;

const t = (text: string): TemplateNode => ({ type: 'text', text });
const v = (key: string): TemplateNode => ({ type: 'variable', attrs: { key } });
const clause = (title: string, body: TemplateNode[]): TemplateNode => ({
  type: 'listItem',
  content: [
    { type: 'paragraph', content: [{ type: 'text', text: `${title}. `, marks: [{ type: 'bold' }] }, ...body] },
    {
      type: 'paragraph',
      content: [
        t(
          'Las partes declaran conocer el estado del inmueble, su ubicación, linderos y medidas perimétricas, y que el precio pactado es el justo valor del bien, no existiendo entre ellos desproporción alguna que pudiera dar lugar a acción de lesión.',
        ),
      ],
    },
  ],
});

/** A compraventa a plazos of twelve clauses with the schedule as a table. */
const TEMPLATE: TemplateNode = {
  type: 'doc',
  content: [
    {
      type: 'heading',
      attrs: { level: 1, textAlign: 'center' },
      content: [t('CONTRATO DE COMPRAVENTA A PLAZOS CON RESERVA DE PROPIEDAD')],
    },
    {
      type: 'paragraph',
      content: [
        t('Conste por el presente documento el contrato que celebran '),
        v('empresa.razon_social'),
        t(' y '),
        v('comprador.nombre'),
        t('.'),
      ],
    },
    {
      type: 'orderedList',
      content: [
        clause('PRIMERA', [t('EL VENDEDOR es propietario del lote '), v('lote.numero'), t(' de la manzana '), v('lote.manzana'), t('.')]),
        clause('SEGUNDA', [t('El precio es '), v('venta.precio'), t(' ('), v('venta.precio_letras'), t(').')]),
        ...Array.from({ length: 9 }, (_, i) =>
          clause(`CLÁUSULA ${i + 3}`, [t('Estipulación de las partes sobre el pago y la entrega del lote.')]),
        ),
        clause('DUODÉCIMA', [
          t('El cronograma de pagos es el siguiente:'),
          v('venta.cronograma'),
          t('Total: '),
          v('venta.cronograma_total'),
        ]),
      ],
    },
    { type: 'pageBreak' },
    { type: 'paragraph', attrs: { textAlign: 'center' }, content: [t('Firmas')] },
  ],
};

/** The values of a sale with `instalments` monthly rows. */
function values(instalments: number): ContractValues {
  const amount = 41_667;
  const rows = Array.from({ length: instalments }, (_, i) => [
    String(i + 1),
    `Cuota ${i + 1}`,
    `01/${String((i % 12) + 1).padStart(2, '0')}/${2026 + Math.floor(i / 12)}`,
    formatMoney(amount, 'PEN'),
  ]);
  const total = amount * instalments;
  return {
    'empresa.razon_social': { type: 'TEXT', text: 'Inmobiliaria Los Andes S.A.C.' },
    'comprador.nombre': { type: 'TEXT', text: 'Rosa Quispe Mamani' },
    'lote.numero': { type: 'TEXT', text: '12' },
    'lote.manzana': { type: 'TEXT', text: 'D' },
    'venta.precio': { type: 'MONEY', cents: total, currency: 'PEN', text: formatMoney(total, 'PEN') },
    'venta.precio_letras': { type: 'TEXT', text: 'CIENTO CUARENTA Y NUEVE MIL NOVECIENTOS NOVENTA Y NUEVE Y 20/100 SOLES' },
    'venta.cronograma': {
      type: 'TABLE',
      head: ['N.º', 'Concepto', 'Vencimiento', 'Importe'],
      rows,
      foot: ['', 'Total', '', formatMoney(total, 'PEN')],
      text: '',
    },
    'venta.cronograma_total': { type: 'MONEY', cents: total, currency: 'PEN', text: formatMoney(total, 'PEN') },
  };
}

const issuer = {
  business_name: 'Inmobiliaria Los Andes S.A.C.',
  ruc: '20100000009',
  address: 'Av. Prueba 100, Lima',
  phone: null,
  email: null,
  logo: null,
};

/** Median milliseconds of one render (resolve + PDF) after a warm-up, and the PDF's size. */
async function median(instalments: number): Promise<{ ms: number; bytes: number }> {
  const input = values(instalments);
  const once = async () => {
    const { doc } = resolveDocument(TEMPLATE, input);
    return renderContractPdf({ doc, issuer, number: 'C-2026-000123', title: 'Compraventa a plazos' });
  };
  let bytes = (await once()).length;
  await once();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    bytes = (await once()).length;
    times.push(performance.now() - start);
  }
  return { ms: times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!, bytes };
}

const long = await median(360);
const short = await median(12);
console.log(`${'contract'.padEnd(28)} ${'ms'.padStart(8)} ${'KB'.padStart(8)}`);
console.log(`${'360 instalments'.padEnd(28)} ${long.ms.toFixed(1).padStart(8)} ${(long.bytes / 1024).toFixed(1).padStart(8)}`);
console.log(`${'12 instalments'.padEnd(28)} ${short.ms.toFixed(1).padStart(8)} ${(short.bytes / 1024).toFixed(1).padStart(8)}`);
console.log(
  `ratio 360 / 12: ${(long.ms / short.ms).toFixed(2)}×; target 360 instalments ≤ ${TARGET_MS} ms ${long.ms <= TARGET_MS ? 'OK' : 'OVER TARGET'}`,
);
if (long.ms > TARGET_MS) process.exitCode = 1;
