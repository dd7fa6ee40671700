import type { ContractKind, TemplateNode } from '../../../src/schemas/administracion/contract-templates';

/**
 * The demo's contract templates (docs/domain.md "Contract variables"): one complete document per
 * kind, written for this product (no text copied from any notary's or developer's model), with the
 * catalogue's variables as `variable` nodes. The contracts module seeds them per demo subdivision
 * as version 1 PUBLICADA, {@link demoTemplateRevision} 2 PUBLICADA and 3 BORRADOR.
 *
 * Legal frame (Código Civil del Perú): compraventa arts. 1529 ss.; reserva de propiedad art. 1583;
 * resolución por falta de pago de cuotas arts. 1561–1563; arras confirmatorias arts. 1477–1479;
 * resolución por intimación art. 1429 (a notarial letter granting at least 15 days).
 */

// ------------------------------------------------------------------------------------------------
// Builders of the editor's JSON (Tiptap 3 / ProseMirror)
// ------------------------------------------------------------------------------------------------

type Inline = string | TemplateNode;
const inline = (part: Inline): TemplateNode => (typeof part === 'string' ? { type: 'text', text: part } : part);
/** A variable chip. */
const v = (key: string): TemplateNode => ({ type: 'variable', attrs: { key } });
/** Bold text. */
const b = (text: string): TemplateNode => ({ type: 'text', text, marks: [{ type: 'bold' }] });
/** A justified paragraph. */
const p = (...parts: Inline[]): TemplateNode => ({ type: 'paragraph', attrs: { textAlign: 'justify' }, content: parts.map(inline) });
/** A centred paragraph. */
const centred = (...parts: Inline[]): TemplateNode => ({ type: 'paragraph', attrs: { textAlign: 'center' }, content: parts.map(inline) });
/** A heading (1–3), centred. */
const h = (level: 1 | 2 | 3, text: string): TemplateNode => ({
  type: 'heading',
  attrs: { level, textAlign: 'center' },
  content: [{ type: 'text', text }],
});
/** A numbered clause: its title in bold, then its paragraphs. */
const clause = (title: string, ...paragraphs: TemplateNode[]): TemplateNode => ({
  type: 'listItem',
  content: [{ type: 'paragraph', content: [b(title)] }, ...paragraphs],
});
/** Numbered clauses (PRIMERA, SEGUNDA… are the list's numbers). */
const clauses = (...items: TemplateNode[]): TemplateNode => ({ type: 'orderedList', attrs: { start: 1 }, content: items });
const pageBreak: TemplateNode = { type: 'pageBreak' };
/** A variable on its own paragraph (tables, lists). */
const block = (key: string): TemplateNode => ({ type: 'paragraph', content: [v(key)] });

/** The signature table: one column per party, a line and the name under it. */
function signatures(left: Inline[], right: Inline[]): TemplateNode {
  const cell = (parts: Inline[]): TemplateNode => ({
    type: 'tableCell',
    content: [centred('\u00a0'), centred('\u00a0'), centred('______________________________'), centred(...parts)],
  });
  return { type: 'table', content: [{ type: 'tableRow', content: [cell(left), cell(right)] }] };
}

const seller: Inline[] = [
  b('LA VENDEDORA'),
  { type: 'hardBreak' },
  v('empresa.razon_social'),
  { type: 'hardBreak' },
  'p. ',
  v('empresa.representante'),
];
const buyer: Inline[] = [b('EL COMPRADOR'), { type: 'hardBreak' }, v('comprador.nombre'), { type: 'hardBreak' }, v('comprador.documento')];

// ------------------------------------------------------------------------------------------------
// Shared passages
// ------------------------------------------------------------------------------------------------

/** The parties' introduction of a sale: the company and every buyer. */
const partiesOfSale = (document: string): TemplateNode[] => [
  p(
    `Conste por el presente documento el ${document} que celebran, de una parte, `,
    v('empresa.razon_social'),
    ', con RUC N.º ',
    v('empresa.ruc'),
    ', con domicilio en ',
    v('empresa.domicilio'),
    ', debidamente representada por ',
    v('empresa.representante'),
    ', identificado(a) con DNI N.º ',
    v('empresa.representante_dni'),
    ', según poder inscrito en ',
    v('empresa.poder_partida'),
    ' del Registro de Personas Jurídicas de la SUNARP, a quien en adelante se denominará ',
    b('LA VENDEDORA'),
    '; y, de la otra parte, ',
    v('compradores.lista'),
    ', a quien(es) en adelante se denominará ',
    b('EL COMPRADOR'),
    '; en los términos y condiciones siguientes:',
  ),
];

const background = clause(
  'ANTECEDENTES',
  p(
    b('LA VENDEDORA'),
    ' es propietaria del predio matriz en el que desarrolla la habilitación urbana denominada ',
    v('lotizacion.nombre'),
    ', ubicada en el distrito de ',
    v('lotizacion.distrito'),
    ', provincia de ',
    v('lotizacion.provincia'),
    ' y departamento de ',
    v('lotizacion.departamento'),
    ', inscrito en la Partida Electrónica N.º ',
    v('lotizacion.partida_matriz'),
    ' del Registro de Predios de la Zona Registral correspondiente. Dentro de dicha habilitación se encuentra el lote materia del presente contrato.',
  ),
);

const objectOfSale = clause(
  'OBJETO',
  p(
    'Por el presente contrato ',
    b('LA VENDEDORA'),
    ' transfiere en venta real a ',
    b('EL COMPRADOR'),
    ' el Lote N.º ',
    v('lote.numero'),
    ' de la Manzana ',
    v('lote.manzana'),
    ', etapa ',
    v('lote.etapa'),
    ', de la habilitación ',
    v('lotizacion.nombre'),
    ', con un área de ',
    v('lote.area_m2'),
    ' m² y un perímetro de ',
    v('lote.perimetro_m'),
    ' m, comprendido dentro de los linderos y medidas perimétricas siguientes:',
  ),
  {
    type: 'bulletList',
    content: [
      ['Por el frente', 'lote.lindero_frente', 'lote.medida_frente'],
      ['Por la derecha entrando', 'lote.lindero_derecha', 'lote.medida_derecha'],
      ['Por la izquierda entrando', 'lote.lindero_izquierda', 'lote.medida_izquierda'],
      ['Por el fondo', 'lote.lindero_fondo', 'lote.medida_fondo'],
    ].map(([side, neighbour, length]) => ({
      type: 'listItem',
      content: [p(`${side}: colinda con `, v(neighbour!), ', con ', v(length!), ' m.')],
    })),
  },
  p(
    'La transferencia comprende los usos, costumbres, servidumbres y todo cuanto de hecho y por derecho corresponde al lote, sin reserva ni limitación alguna, salvo lo pactado en este contrato.',
  ),
);

const priceIntro = p(
  'El precio de venta pactado de común acuerdo es de ',
  v('venta.precio'),
  ' (',
  v('venta.precio_letras'),
  '), que las partes declaran justo y equivalente al valor del lote.',
);

const sanitation = clause(
  'SANEAMIENTO',
  p(
    b('LA VENDEDORA'),
    ' declara que sobre el lote no pesa carga, gravamen, medida judicial ni extrajudicial que limite su libre disposición, y se obliga al saneamiento por evicción, vicios ocultos y hecho propio conforme a ley.',
  ),
);

const expenses = clause(
  'GASTOS Y TRIBUTOS',
  p(
    'Los gastos notariales y registrales de la escritura pública que este contrato origine son de cargo de ',
    b('EL COMPRADOR'),
    '. El impuesto de alcabala, de corresponder, es de cargo de ',
    b('EL COMPRADOR'),
    '; el impuesto predial es de cargo de ',
    b('LA VENDEDORA'),
    ' hasta el año de la firma y de ',
    b('EL COMPRADOR'),
    ' desde el año siguiente.',
  ),
);

const jurisdiction = clause(
  'DOMICILIO Y JURISDICCIÓN',
  p(
    'Las partes señalan como sus domicilios los indicados en la introducción, donde se tendrán por válidas las comunicaciones. Para cualquier controversia se someten a los jueces y tribunales de ',
    v('contrato.lugar'),
    ', renunciando al fuero de sus domicilios.',
  ),
);

const closing = (document: string) =>
  p(
    `En señal de conformidad, las partes suscriben el presente ${document} en dos ejemplares de igual tenor, en la ciudad de `,
    v('contrato.lugar'),
    ', el ',
    v('contrato.fecha_firma_letras'),
    ' (',
    v('contrato.fecha_firma'),
    ').',
  );

// ------------------------------------------------------------------------------------------------
// The five documents
// ------------------------------------------------------------------------------------------------

const cashSale: TemplateNode = {
  type: 'doc',
  content: [
    h(1, 'CONTRATO DE COMPRAVENTA DE LOTE DE TERRENO'),
    centred('Contrato N.º ', v('contrato.numero'), ' — Venta ', v('venta.numero')),
    ...partiesOfSale('contrato de compraventa'),
    clauses(
      background,
      objectOfSale,
      clause(
        'PRECIO Y FORMA DE PAGO',
        priceIntro,
        p(
          'El precio es pagado al contado. De él, ',
          v('venta.separacion_abonada'),
          ' corresponden a la separación entregada con anterioridad, que se imputa al precio. ',
          b('LA VENDEDORA'),
          ' declara haber recibido el íntegro del precio a su entera satisfacción, sin más constancia que la firma de este documento.',
        ),
      ),
      clause(
        'ENTREGA Y POSESIÓN',
        p(
          b('LA VENDEDORA'),
          ' entrega la posesión del lote a ',
          b('EL COMPRADOR'),
          ' a la firma del presente contrato, quien lo recibe a su satisfacción tras haberlo verificado en el terreno.',
        ),
      ),
      sanitation,
      clause(
        'ESCRITURA PÚBLICA',
        p(
          'Las partes se obligan a elevar el presente contrato a escritura pública ante el notario que designe ',
          b('EL COMPRADOR'),
          ', a su solo requerimiento, y a firmar los documentos necesarios para su inscripción en el Registro de Predios.',
        ),
      ),
      expenses,
      jurisdiction,
    ),
    closing('contrato'),
    signatures(seller, buyer),
  ],
};

const instalmentSale: TemplateNode = {
  type: 'doc',
  content: [
    h(1, 'CONTRATO DE COMPRAVENTA DE LOTE A PLAZOS CON RESERVA DE PROPIEDAD'),
    centred('Contrato N.º ', v('contrato.numero'), ' — Venta ', v('venta.numero')),
    ...partiesOfSale('contrato de compraventa a plazos con reserva de propiedad'),
    clauses(
      background,
      objectOfSale,
      clause('PRECIO', priceIntro),
      clause(
        'FORMA DE PAGO',
        p(
          b('EL COMPRADOR'),
          ' paga a la firma de este contrato una cuota inicial de ',
          v('venta.cuota_inicial'),
          ' (',
          v('venta.cuota_inicial_letras'),
          '), en la que se imputan ',
          v('venta.separacion_abonada'),
          ' entregados como separación. El saldo de ',
          v('venta.monto_financiado'),
          ' (',
          v('venta.monto_financiado_letras'),
          ') se paga en ',
          v('venta.numero_cuotas'),
          ' cuotas mensuales con una tasa de interés compensatorio de ',
          v('venta.tasa_mensual'),
          ' % mensual (tasa efectiva anual de ',
          v('venta.tea'),
          ' %), en las fechas y por los importes del cronograma de pagos que figura como Anexo y forma parte de este contrato.',
        ),
        p('El total a pagar según el cronograma asciende a ', v('venta.cronograma_total'), '.'),
        p(
          'Los pagos se efectúan en las cuentas o medios que ',
          b('LA VENDEDORA'),
          ' indique por escrito; cada pago se acredita con el comprobante que ella emite. ',
          b('EL COMPRADOR'),
          ' puede adelantar cuotas o cancelar el saldo en cualquier momento, sin penalidad.',
        ),
      ),
      clause(
        'MORA',
        p(v('venta.politica_mora'), ' La mora es automática, sin necesidad de intimación (art. 1333, inciso 1, del Código Civil).'),
      ),
      clause(
        'RESERVA DE PROPIEDAD',
        p(
          'Conforme al artículo 1583 del Código Civil, ',
          b('LA VENDEDORA'),
          ' se reserva la propiedad del lote hasta que ',
          b('EL COMPRADOR'),
          ' haya pagado la totalidad del precio. ',
          b('EL COMPRADOR'),
          ' adquiere la propiedad con el pago de la última cuota y asume desde la entrega el riesgo del lote. Mientras dure la reserva, ',
          b('EL COMPRADOR'),
          ' no puede transferir, gravar ni ceder su posición sin autorización escrita de ',
          b('LA VENDEDORA'),
          '. Las partes acuerdan que este pacto conste en la escritura pública y en el asiento registral de la transferencia.',
        ),
      ),
      clause(
        'ENTREGA Y POSESIÓN',
        p(
          b('LA VENDEDORA'),
          ' entrega la posesión del lote a ',
          b('EL COMPRADOR'),
          ' con el pago de la cuota inicial; ',
          b('EL COMPRADOR'),
          ' lo conserva con la diligencia ordinaria y no puede ejecutar edificaciones permanentes sin licencia municipal.',
        ),
      ),
      clause(
        'RESOLUCIÓN POR FALTA DE PAGO',
        p(
          'Si ',
          b('EL COMPRADOR'),
          ' deja de pagar ',
          v('venta.cuotas_resolucion'),
          ' cuotas, sucesivas o no, ',
          b('LA VENDEDORA'),
          ' puede resolver el contrato conforme al artículo 1561 del Código Civil, previa intimación por carta notarial que otorgue un plazo no menor de quince días para el pago de lo adeudado (artículo 1429). Vencido ese plazo sin pago, el contrato queda resuelto de pleno derecho.',
        ),
        p(
          'Resuelto el contrato, ',
          b('LA VENDEDORA'),
          ' recupera la posesión del lote y devuelve a ',
          b('EL COMPRADOR'),
          ' lo pagado, descontando como penalidad el ',
          v('venta.penalidad_porcentaje'),
          ' % de lo pagado, que las partes pactan como compensación equitativa por el uso del bien conforme al artículo 1563 del Código Civil.',
        ),
      ),
      sanitation,
      clause(
        'ESCRITURA PÚBLICA',
        p(
          'Las partes se obligan a elevar este contrato a escritura pública cuando ',
          b('EL COMPRADOR'),
          ' lo solicite, dejando constancia del pacto de reserva de propiedad mientras exista saldo pendiente; cancelado el precio, ',
          b('LA VENDEDORA'),
          ' otorga la minuta de levantamiento de la reserva.',
        ),
      ),
      expenses,
      jurisdiction,
    ),
    closing('contrato'),
    signatures(seller, buyer),
    pageBreak,
    h(2, 'ANEXO: CRONOGRAMA DE PAGOS'),
    p('Venta ', v('venta.numero'), ' — Lote ', v('lote.numero'), ' de la Manzana ', v('lote.manzana'), ' — ', v('lotizacion.nombre')),
    block('venta.cronograma'),
    signatures(seller, buyer),
  ],
};

const separation: TemplateNode = {
  type: 'doc',
  content: [
    h(1, 'CONTRATO DE SEPARACIÓN DE LOTE CON ARRAS CONFIRMATORIAS'),
    p(
      'Conste por el presente documento el contrato de separación que celebran ',
      v('empresa.razon_social'),
      ', con RUC N.º ',
      v('empresa.ruc'),
      ', con domicilio en ',
      v('empresa.domicilio'),
      ', representada por ',
      v('empresa.representante'),
      ', identificado(a) con DNI N.º ',
      v('empresa.representante_dni'),
      ', a quien se denominará ',
      b('LA VENDEDORA'),
      '; y ',
      v('compradores.lista'),
      ', a quien se denominará ',
      b('EL INTERESADO'),
      '; en los términos siguientes:',
    ),
    clauses(
      clause(
        'OBJETO',
        p(
          b('EL INTERESADO'),
          ' separa el Lote N.º ',
          v('lote.numero'),
          ' de la Manzana ',
          v('lote.manzana'),
          ', etapa ',
          v('lote.etapa'),
          ', de la habilitación ',
          v('lotizacion.nombre'),
          ' (distrito de ',
          v('lotizacion.distrito'),
          '), con un área de ',
          v('lote.area_m2'),
          ' m², con el fin de celebrar su compraventa por el precio de ',
          v('separacion.precio_pactado'),
          '.',
        ),
      ),
      clause(
        'ARRAS CONFIRMATORIAS',
        p(
          'En la fecha ',
          v('separacion.fecha'),
          b(' EL INTERESADO'),
          ' entrega a ',
          b('LA VENDEDORA'),
          ' la suma de ',
          v('separacion.monto'),
          ' (',
          v('separacion.monto_letras'),
          ') en calidad de arras confirmatorias, conforme a los artículos 1477 a 1479 del Código Civil, en señal de la conclusión del acuerdo de compraventa.',
        ),
      ),
      clause(
        'PLAZO',
        p(
          b('LA VENDEDORA'),
          ' mantiene el lote separado a favor de ',
          b('EL INTERESADO'),
          ' hasta el ',
          v('separacion.vence'),
          ', y se abstiene de ofrecerlo a terceros durante ese plazo. Dentro de él, las partes firman el contrato de compraventa.',
        ),
      ),
      clause(
        'IMPUTACIÓN Y EFECTOS',
        p(
          'Si la compraventa se celebra, las arras se imputan al precio (artículo 1478). Si ',
          b('EL INTERESADO'),
          ' no la celebra por causa que le sea imputable, ',
          b('LA VENDEDORA'),
          ' puede dejar sin efecto el contrato conservando las arras. Si es ',
          b('LA VENDEDORA'),
          ' quien no cumple, ',
          b('EL INTERESADO'),
          ' puede dejarlo sin efecto y exigir el doble de las arras. En lugar de ello, la parte que cumplió puede exigir la ejecución del contrato y la indemnización de los daños (artículo 1478).',
        ),
      ),
      clause('JURISDICCIÓN', p('Para cualquier controversia las partes se someten a los jueces de ', v('contrato.lugar'), '.')),
    ),
    p('Firmado en ', v('contrato.lugar'), ', el ', v('contrato.fecha_firma_letras'), '.'),
    signatures(seller, [b('EL INTERESADO'), { type: 'hardBreak' }, v('comprador.nombre'), { type: 'hardBreak' }, v('comprador.documento')]),
  ],
};

const addendum: TemplateNode = {
  type: 'doc',
  content: [
    h(1, 'ADENDA DE REPROGRAMACIÓN DEL CRONOGRAMA DE PAGOS'),
    centred('Venta ', v('venta.numero'), ' — Lote ', v('lote.numero'), ' de la Manzana ', v('lote.manzana'), ' — ', v('lotizacion.nombre')),
    ...partiesOfSale('adenda al contrato de compraventa'),
    clauses(
      clause(
        'ANTECEDENTES',
        p(
          'Las partes celebraron el contrato de compraventa del Lote N.º ',
          v('lote.numero'),
          ' de la Manzana ',
          v('lote.manzana'),
          ' de la habilitación ',
          v('lotizacion.nombre'),
          ' por el precio de ',
          v('venta.precio'),
          ' (',
          v('venta.precio_letras'),
          '), pagadero en ',
          v('venta.numero_cuotas'),
          ' cuotas mensuales. ',
          b('EL COMPRADOR'),
          ' ha solicitado reprogramar el saldo por el motivo siguiente: ',
          v('adenda.motivo'),
          '.',
        ),
      ),
      clause(
        'OBJETO',
        p(
          'Por la presente adenda, las partes acuerdan reprogramar el saldo pendiente de pago, que asciende a ',
          v('adenda.saldo'),
          ', conforme al nuevo cronograma siguiente, que reemplaza al anterior respecto de las cuotas no pagadas:',
        ),
        block('adenda.cronograma_nuevo'),
      ),
      clause('MORA', p(v('adenda.mora'))),
      clause(
        'SUBSISTENCIA DEL CONTRATO',
        p(
          'En todo lo no modificado por esta adenda, el contrato de compraventa subsiste en sus mismos términos, incluidos la reserva de propiedad y la cláusula de resolución por falta de pago de ',
          v('venta.cuotas_resolucion'),
          ' cuotas. Esta adenda no constituye novación de la obligación.',
        ),
      ),
    ),
    closing('adenda'),
    signatures(seller, buyer),
  ],
};

const rescissionLetter: TemplateNode = {
  type: 'doc',
  content: [
    {
      type: 'paragraph',
      attrs: { textAlign: 'right' },
      content: [v('contrato.lugar'), { type: 'text', text: ', ' }, v('resolucion.fecha')],
    },
    h(1, 'CARTA NOTARIAL'),
    p('Señor(es): ', v('comprador.nombre')),
    p('Domicilio: ', v('comprador.domicilio'), ', distrito de ', v('comprador.distrito')),
    p(b('Asunto: '), 'Requerimiento de pago bajo apercibimiento de resolución del contrato — Venta ', v('venta.numero')),
    p(
      'De nuestra consideración: nos dirigimos a usted en representación de ',
      v('empresa.razon_social'),
      ', con RUC N.º ',
      v('empresa.ruc'),
      ', en relación con el contrato de compraventa a plazos del Lote N.º ',
      v('lote.numero'),
      ' de la Manzana ',
      v('lote.manzana'),
      ' de la habilitación ',
      v('lotizacion.nombre'),
      ', celebrado por el precio de ',
      v('venta.precio'),
      ' (',
      v('venta.precio_letras'),
      ').',
    ),
    p('A la fecha usted mantiene impagas ', v('resolucion.cuotas_vencidas'), ' cuotas vencidas, que se detallan a continuación:'),
    block('resolucion.cuotas_detalle'),
    p(
      'El contrato faculta a nuestra representada a resolverlo ante la falta de pago de ',
      v('venta.cuotas_resolucion'),
      ' cuotas (artículo 1561 del Código Civil). En aplicación del artículo 1429 del Código Civil, ',
      b('le requerimos para que en el plazo de '),
      v('resolucion.plazo_dias'),
      b(' días calendario'),
      ', contados desde la recepción de esta carta, pague las cuotas vencidas con la mora que corresponda, bajo apercibimiento de que, vencido dicho plazo sin que se haya producido el pago, el contrato quede resuelto de pleno derecho.',
    ),
    p(
      'Producida la resolución, usted deberá restituir la posesión del lote. De lo pagado a la fecha, ',
      v('resolucion.monto_pagado'),
      ', nuestra representada retendrá como penalidad ',
      v('resolucion.penalidad'),
      ' (',
      v('venta.penalidad_porcentaje'),
      ' %, artículo 1563 del Código Civil y cláusula de resolución del contrato), y pondrá a su disposición ',
      v('resolucion.devolucion'),
      ' contra la entrega del lote.',
    ),
    p('Sin otro particular, quedamos de usted.'),
    p('Atentamente,'),
    centred('\u00a0'),
    centred('______________________________'),
    centred(v('empresa.razon_social')),
    centred(v('empresa.representante'), ' — DNI N.º ', v('empresa.representante_dni')),
  ],
};

/** One complete demo document per kind (the editor's JSON). */
export const DEMO_TEMPLATE_DOCS: Record<ContractKind, TemplateNode> = {
  COMPRAVENTA_CONTADO: cashSale,
  COMPRAVENTA_PLAZOS: instalmentSale,
  SEPARACION: separation,
  ADENDA: addendum,
  CARTA_RESOLUCION: rescissionLetter,
};

/** The clause each revision adds, by revision number (2, 3…): a data-protection and a notices clause. */
const REVISION_CLAUSES: readonly TemplateNode[] = [
  clause(
    'PROTECCIÓN DE DATOS PERSONALES',
    p(
      'Los datos personales de las partes se tratan solo para la ejecución de este documento y las obligaciones que de él nacen, conforme a la Ley N.º 29733, Ley de Protección de Datos Personales, y su reglamento. Su titular puede ejercer sus derechos de acceso, rectificación, cancelación y oposición ante ',
      v('empresa.razon_social'),
      ' en ',
      v('empresa.domicilio'),
      '.',
    ),
  ),
  clause(
    'COMUNICACIONES',
    p(
      'Todo cambio de domicilio surte efecto desde que se comunica por escrito a la otra parte; mientras ello no ocurra, son válidas las comunicaciones cursadas al domicilio aquí señalado.',
    ),
  ),
];

/**
 * A revised version of a demo document: version `n` (≥ 2) adds the first n − 1 clauses of the
 * revisions (data protection, then notices) at the end of its numbered clauses — or, in a document
 * without numbered clauses (the letter), as paragraphs before its last three lines. Version 1 is
 * the document itself. Pure: the input is not changed.
 * @param n the version number, 1 or more.
 */
export function demoTemplateRevision(doc: TemplateNode, n: number): TemplateNode {
  const extra = REVISION_CLAUSES.slice(0, Math.max(0, Math.min(n - 1, REVISION_CLAUSES.length)));
  const copy = structuredClone(doc);
  if (extra.length === 0) return copy;
  const content = copy.content ?? [];
  const list = content.find((node) => node.type === 'orderedList');
  if (list) list.content = [...(list.content ?? []), ...structuredClone(extra)];
  else {
    const paragraphs = extra.flatMap((item) => (item.content ?? []).slice(1));
    const at = Math.max(0, content.length - 4);
    copy.content = [...content.slice(0, at), ...structuredClone(paragraphs), ...content.slice(at)];
  }
  return copy;
}
