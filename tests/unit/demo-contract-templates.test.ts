/**
 * The demo's contract templates (server/modules/administracion/demo-contract-templates.ts;
 * docs/domain.md "Contract variables"): each kind's document is a valid editor document with no
 * issue for its kind, uses the key variables, has numbered clauses or headings and a signature,
 * and its revisions add a clause without touching the original.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_TEMPLATE_DOCS, demoTemplateRevision } from '../../server/modules/administracion/demo-contract-templates';
import {
  CONTRACT_KINDS,
  templateContentIssues,
  templateDocSchema,
  type TemplateNode,
} from '../../src/schemas/administracion/contract-templates';

const keysOf = (node: TemplateNode): string[] => [
  ...(node.type === 'variable' ? [String(node.attrs?.key)] : []),
  ...(node.content ?? []).flatMap(keysOf),
];
const typesOf = (node: TemplateNode): string[] => [node.type, ...(node.content ?? []).flatMap(typesOf)];
const textOf = (node: TemplateNode): string => (node.text ?? '') + (node.content ?? []).map(textOf).join('');
const emptyTexts = (node: TemplateNode): number =>
  (node.type === 'text' && !node.text ? 1 : 0) + (node.content ?? []).reduce((n, c) => n + emptyTexts(c), 0);

const KEY_VARIABLES: Record<(typeof CONTRACT_KINDS)[number], string[]> = {
  COMPRAVENTA_CONTADO: [
    'comprador.nombre',
    'compradores.lista',
    'lote.numero',
    'lote.manzana',
    'lote.area_m2',
    'lote.lindero_frente',
    'lote.medida_fondo',
    'lotizacion.partida_matriz',
    'venta.precio',
    'venta.precio_letras',
    'contrato.fecha_firma_letras',
  ],
  COMPRAVENTA_PLAZOS: [
    'comprador.nombre',
    'lote.numero',
    'lote.lindero_izquierda',
    'venta.precio_letras',
    'venta.cronograma',
    'venta.cronograma_total',
    'venta.tea',
    'venta.politica_mora',
    'venta.cuotas_resolucion',
    'venta.penalidad_porcentaje',
  ],
  SEPARACION: [
    'comprador.nombre',
    'lote.numero',
    'separacion.monto',
    'separacion.monto_letras',
    'separacion.vence',
    'separacion.precio_pactado',
  ],
  ADENDA: [
    'comprador.nombre',
    'lote.numero',
    'venta.precio_letras',
    'adenda.saldo',
    'adenda.cronograma_nuevo',
    'adenda.motivo',
    'adenda.mora',
  ],
  CARTA_RESOLUCION: [
    'comprador.nombre',
    'comprador.domicilio',
    'lote.numero',
    'venta.precio_letras',
    'resolucion.cuotas_vencidas',
    'resolucion.cuotas_detalle',
    'resolucion.plazo_dias',
    'resolucion.penalidad',
  ],
};

describe.each(CONTRACT_KINDS)('demo template %s', (kind) => {
  const doc = DEMO_TEMPLATE_DOCS[kind];

  it('is a valid document with no issue for its kind and no empty text node', () => {
    expect(templateDocSchema.safeParse(doc).success).toBe(true);
    expect(templateContentIssues(doc, kind)).toEqual([]);
    expect(emptyTexts(doc)).toBe(0);
  });

  it('uses the key variables of its kind', () => {
    expect(keysOf(doc)).toEqual(expect.arrayContaining(KEY_VARIABLES[kind]));
  });

  it('has a heading, and numbered clauses and a signature table (the letter: a signature line)', () => {
    const types = typesOf(doc);
    expect(types).toContain('heading');
    if (kind !== 'CARTA_RESOLUCION') expect(types).toEqual(expect.arrayContaining(['orderedList', 'table']));
    else expect(textOf(doc)).toContain('______________________________');
  });

  it('revisions 2 and 3 add one clause each, keep validity, and leave the original as it was', () => {
    const before = JSON.stringify(doc);
    const second = demoTemplateRevision(doc, 2);
    const third = demoTemplateRevision(doc, 3);
    expect(JSON.stringify(doc)).toBe(before);
    expect(JSON.stringify(demoTemplateRevision(doc, 1))).toBe(before);
    expect(textOf(second)).toContain('Ley N.º 29733');
    expect(textOf(third)).toContain('cambio de domicilio');
    expect(textOf(second)).not.toContain('cambio de domicilio');
    for (const revised of [second, third]) {
      expect(templateDocSchema.safeParse(revised).success).toBe(true);
      expect(templateContentIssues(revised, kind)).toEqual([]);
    }
  });
});

describe('the documents as a notary reads them', () => {
  it('the instalment sale states the retention of title (art. 1583) and resolution (arts. 1561, 1563) and breaks the page before the schedule annex', () => {
    const text = textOf(DEMO_TEMPLATE_DOCS.COMPRAVENTA_PLAZOS);
    expect(text).toContain('artículo 1583');
    expect(text).toContain('artículo 1561');
    expect(text).toContain('artículo 1563');
    expect(typesOf(DEMO_TEMPLATE_DOCS.COMPRAVENTA_PLAZOS)).toContain('pageBreak');
  });

  it('the separation is arras confirmatorias (arts. 1477–1479); the letter is art. 1429 with its days', () => {
    expect(textOf(DEMO_TEMPLATE_DOCS.SEPARACION)).toContain('arras confirmatorias');
    expect(textOf(DEMO_TEMPLATE_DOCS.SEPARACION)).toContain('1477 a 1479');
    expect(textOf(DEMO_TEMPLATE_DOCS.CARTA_RESOLUCION)).toContain('artículo 1429');
  });
});
