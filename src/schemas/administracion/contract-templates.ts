import { z } from 'zod';
import { listQueryShape, pagedResponseSchema, sortSchema } from '../paging';
import { recordVersionSchema, versionInAnswerSchema, AT_LEAST_ONE_FIELD } from '../versions';

/**
 * Contract templates (Administración → Generar Contrato, tab "Plantillas"; docs/domain.md
 * "Contract templates"): rich text per subdivision and kind, stored as the editor's (Tiptap 3)
 * JSON document, with variables as atomic `variable` nodes whose `key` must be in
 * {@link CONTRACT_VARIABLES}. Versions: each row is one version of the family (subdivision, kind);
 * BORRADOR is editable, PUBLICADA is read-only and numbered; a new version starts as a BORRADOR copy.
 * Requests are strict; answers are read tolerantly (docs/contracts.md).
 */

/** Kinds of contract document (Código Civil arts. 1583, 1477–1479, 1429). */
export const CONTRACT_KINDS = ['COMPRAVENTA_CONTADO', 'COMPRAVENTA_PLAZOS', 'SEPARACION', 'ADENDA', 'CARTA_RESOLUCION'] as const;
export const contractKindSchema = z.enum(CONTRACT_KINDS, { error: 'Tipo de documento no válido' });
export type ContractKind = z.infer<typeof contractKindSchema>;

/** Spanish labels of the kinds. */
export const CONTRACT_KIND_LABELS: Record<ContractKind, string> = {
  COMPRAVENTA_CONTADO: 'Compraventa al contado',
  COMPRAVENTA_PLAZOS: 'Compraventa a plazos (reserva de propiedad)',
  SEPARACION: 'Separación (arras confirmatorias)',
  ADENDA: 'Adenda de reprogramación',
  CARTA_RESOLUCION: 'Carta notarial de resolución',
};

/** States of a template version. */
export const TEMPLATE_STATES = ['BORRADOR', 'PUBLICADA'] as const;
export const templateStateSchema = z.enum(TEMPLATE_STATES, { error: 'Estado no válido' });
export type TemplateState = z.infer<typeof templateStateSchema>;

/** Types of variable values. MONEY is céntimos + currency; DATE a calendar day; TABLE and LIST render as blocks. */
export const VARIABLE_TYPES = ['TEXT', 'NUMBER', 'DATE', 'MONEY', 'TABLE', 'LIST'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

/** Groups of the catalogue, in the order of the "@" menu. */
export const VARIABLE_GROUPS = {
  empresa: 'Empresa',
  comprador: 'Comprador titular y cónyuge',
  compradores: 'Todos los compradores',
  lote: 'Lote',
  lotizacion: 'Lotización',
  venta: 'Precio y forma de pago',
  contrato: 'Contrato',
  separacion: 'Separación',
  adenda: 'Adenda',
  resolucion: 'Resolución',
} as const;
export type VariableGroup = keyof typeof VARIABLE_GROUPS;

/** One entry of the variable catalogue: its key (what the document stores), label, group, type. */
export interface ContractVariable {
  key: string;
  label: string;
  group: VariableGroup;
  type: VariableType;
  /** Kinds whose templates may use it; absent = every kind. */
  kinds?: readonly ContractKind[];
}

const SALE_KINDS: readonly ContractKind[] = ['COMPRAVENTA_CONTADO', 'COMPRAVENTA_PLAZOS', 'ADENDA', 'CARTA_RESOLUCION'];
const v = (key: string, label: string, type: VariableType, kinds?: readonly ContractKind[]): ContractVariable => ({
  key,
  label,
  group: key.split('.')[0] as VariableGroup,
  type,
  ...(kinds ? { kinds } : {}),
});

/**
 * The variable catalogue (the only keys a template may hold; a template with another key is a 422
 * on `content`). Values are resolved by the server from the sale, its buyers, lot, subdivision and
 * company (docs/domain.md "Contract variables"); lot boundaries are figured from the stored polygon
 * and may be corrected on the contract before issue.
 */
export const CONTRACT_VARIABLES: readonly ContractVariable[] = [
  v('empresa.razon_social', 'Razón social', 'TEXT'),
  v('empresa.ruc', 'RUC', 'TEXT'),
  v('empresa.domicilio', 'Domicilio fiscal', 'TEXT'),
  v('empresa.representante', 'Representante legal', 'TEXT'),
  v('empresa.representante_dni', 'DNI del representante', 'TEXT'),
  v('empresa.poder_partida', 'Partida del poder del representante', 'TEXT'),

  v('comprador.nombre', 'Nombre del titular', 'TEXT'),
  v('comprador.documento', 'DNI/RUC del titular', 'TEXT'),
  v('comprador.estado_civil', 'Estado civil', 'TEXT'),
  v('comprador.regimen_patrimonial', 'Régimen patrimonial', 'TEXT'),
  v('comprador.domicilio', 'Domicilio', 'TEXT'),
  v('comprador.distrito', 'Distrito', 'TEXT'),
  v('comprador.conyuge_nombre', 'Nombre del cónyuge', 'TEXT'),
  v('comprador.conyuge_documento', 'DNI del cónyuge', 'TEXT'),
  v('compradores.lista', 'Compradores (todos, con sus datos)', 'LIST'),

  v('lote.manzana', 'Manzana', 'TEXT'),
  v('lote.numero', 'Número de lote', 'TEXT'),
  v('lote.etapa', 'Etapa', 'TEXT'),
  v('lote.area_m2', 'Área (m²)', 'NUMBER'),
  v('lote.perimetro_m', 'Perímetro (m)', 'NUMBER'),
  v('lote.lindero_frente', 'Colinda por el frente con', 'TEXT'),
  v('lote.medida_frente', 'Medida del frente (m)', 'NUMBER'),
  v('lote.lindero_fondo', 'Colinda por el fondo con', 'TEXT'),
  v('lote.medida_fondo', 'Medida del fondo (m)', 'NUMBER'),
  v('lote.lindero_derecha', 'Colinda por la derecha con', 'TEXT'),
  v('lote.medida_derecha', 'Medida de la derecha (m)', 'NUMBER'),
  v('lote.lindero_izquierda', 'Colinda por la izquierda con', 'TEXT'),
  v('lote.medida_izquierda', 'Medida de la izquierda (m)', 'NUMBER'),

  v('lotizacion.nombre', 'Nombre de la lotización', 'TEXT'),
  v('lotizacion.distrito', 'Distrito', 'TEXT'),
  v('lotizacion.provincia', 'Provincia', 'TEXT'),
  v('lotizacion.departamento', 'Departamento', 'TEXT'),
  v('lotizacion.partida_matriz', 'Partida registral del predio matriz', 'TEXT'),

  v('venta.numero', 'Número de venta', 'TEXT', SALE_KINDS),
  v('venta.precio', 'Precio', 'MONEY', SALE_KINDS),
  v('venta.precio_letras', 'Precio en letras', 'TEXT', SALE_KINDS),
  v('venta.separacion_abonada', 'Separación abonada a cuenta', 'MONEY', SALE_KINDS),
  v('venta.cuota_inicial', 'Cuota inicial', 'MONEY', SALE_KINDS),
  v('venta.cuota_inicial_letras', 'Cuota inicial en letras', 'TEXT', SALE_KINDS),
  v('venta.monto_financiado', 'Monto financiado', 'MONEY', SALE_KINDS),
  v('venta.monto_financiado_letras', 'Monto financiado en letras', 'TEXT', SALE_KINDS),
  v('venta.tasa_mensual', 'Tasa de interés mensual (%)', 'NUMBER', SALE_KINDS),
  v('venta.tea', 'Tasa efectiva anual, TEA (%)', 'NUMBER', SALE_KINDS),
  v('venta.numero_cuotas', 'Número de cuotas', 'NUMBER', SALE_KINDS),
  v('venta.cronograma', 'Cronograma de pagos (tabla)', 'TABLE', SALE_KINDS),
  v('venta.cronograma_total', 'Total del cronograma', 'MONEY', SALE_KINDS),
  v('venta.politica_mora', 'Política de mora', 'TEXT', SALE_KINDS),
  v('venta.cuotas_resolucion', 'Cuotas impagas que permiten resolver', 'NUMBER', SALE_KINDS),
  v('venta.penalidad_porcentaje', 'Penalidad por resolución (%)', 'NUMBER', SALE_KINDS),

  v('contrato.numero', 'Número de contrato', 'TEXT'),
  v('contrato.fecha_firma', 'Fecha de firma', 'DATE'),
  v('contrato.fecha_firma_letras', 'Fecha de firma en letras', 'TEXT'),
  v('contrato.lugar', 'Lugar de firma', 'TEXT'),

  v('separacion.monto', 'Monto de la separación (arras)', 'MONEY', ['SEPARACION']),
  v('separacion.monto_letras', 'Monto de la separación en letras', 'TEXT', ['SEPARACION']),
  v('separacion.fecha', 'Fecha de la separación', 'DATE', ['SEPARACION']),
  v('separacion.vence', 'Vencimiento de la separación', 'DATE', ['SEPARACION']),
  v('separacion.precio_pactado', 'Precio pactado del lote', 'MONEY', ['SEPARACION']),

  v('adenda.motivo', 'Motivo de la reprogramación', 'TEXT', ['ADENDA']),
  v('adenda.saldo', 'Saldo reprogramado', 'MONEY', ['ADENDA']),
  v('adenda.cronograma_nuevo', 'Nuevo cronograma (tabla)', 'TABLE', ['ADENDA']),
  v('adenda.mora', 'Tratamiento de la mora', 'TEXT', ['ADENDA']),
  v('adenda.fecha', 'Fecha de la adenda', 'DATE', ['ADENDA']),
  v('adenda.metodo', 'Método del nuevo cronograma', 'TEXT', ['ADENDA']),
  v('adenda.tasa_mensual', 'Tasa mensual del nuevo cronograma (%)', 'NUMBER', ['ADENDA']),
  v('adenda.numero_cuotas', 'Cuotas del nuevo cronograma', 'NUMBER', ['ADENDA']),
  v('adenda.primer_vencimiento', 'Vencimiento de la primera cuota nueva', 'DATE', ['ADENDA']),
  v('adenda.monto_financiado', 'Monto financiado por la adenda', 'MONEY', ['ADENDA']),
  v('adenda.total', 'Total del nuevo cronograma', 'MONEY', ['ADENDA']),

  v('resolucion.cuotas_vencidas', 'Cuotas vencidas impagas', 'NUMBER', ['CARTA_RESOLUCION']),
  v('resolucion.cuotas_detalle', 'Cuotas vencidas (tabla)', 'TABLE', ['CARTA_RESOLUCION']),
  v('resolucion.monto_pagado', 'Monto pagado por el comprador', 'MONEY', ['CARTA_RESOLUCION']),
  v('resolucion.penalidad', 'Penalidad', 'MONEY', ['CARTA_RESOLUCION']),
  v('resolucion.devolucion', 'Monto a devolver', 'MONEY', ['CARTA_RESOLUCION']),
  v('resolucion.plazo_dias', 'Plazo para cumplir (días)', 'NUMBER', ['CARTA_RESOLUCION']),
  v('resolucion.fecha', 'Fecha de la carta', 'DATE', ['CARTA_RESOLUCION']),
];

/** The catalogue by key. */
export const CONTRACT_VARIABLES_BY_KEY: ReadonlyMap<string, ContractVariable> = new Map(
  CONTRACT_VARIABLES.map((variable) => [variable.key, variable]),
);

/** Whether a template of `kind` may use `key`. */
export function variableAllowedIn(key: string, kind: ContractKind): boolean {
  const variable = CONTRACT_VARIABLES_BY_KEY.get(key);
  return variable !== undefined && (variable.kinds === undefined || variable.kinds.includes(kind));
}

/** Spanish messages of the templates (409 conflicts, 422 per field). */
export const CONTRACT_TEMPLATE_MESSAGES = {
  subdivisionRequired: 'Seleccione la lotización',
  nameRequired: 'Indique el nombre de la plantilla',
  contentRequired: 'La plantilla no tiene contenido',
  contentInvalid: 'El contenido de la plantilla no es válido',
  unknownVariable: (key: string) => `Variable desconocida: «${key}»`,
  variableNotForKind: (key: string) => `La variable «${key}» no corresponde a este tipo de documento`,
  tooLarge: 'La plantilla es demasiado grande (máximo 1 MB de contenido)',
  publishedReadOnly: 'Una plantilla publicada no se edita: cree una nueva versión',
  draftExists: 'Ya hay una versión en borrador de esta plantilla',
  onlyDraftPublishes: 'Solo una plantilla en borrador se publica',
} as const;

/** Node types the document may hold (Tiptap StarterKit subset + table, variable, pageBreak). */
export const TEMPLATE_NODE_TYPES = [
  'doc',
  'paragraph',
  'heading',
  'text',
  'hardBreak',
  'orderedList',
  'bulletList',
  'listItem',
  'table',
  'tableRow',
  'tableHeader',
  'tableCell',
  'pageBreak',
  'variable',
  'horizontalRule',
] as const;
/** Marks the document may hold. */
export const TEMPLATE_MARK_TYPES = ['bold', 'italic', 'underline'] as const;

/** Caps of a template document (work per request is bounded; docs/security.md). */
export const TEMPLATE_LIMITS = { maxNodes: 20_000, maxDepth: 12, maxTextLength: 20_000, maxJsonBytes: 1_000_000 } as const;

/**
 * A node of the editor's JSON document ({type, attrs?, content?, marks?, text?}, Tiptap/ProseMirror
 * JSON). Only {@link TEMPLATE_NODE_TYPES} and {@link TEMPLATE_MARK_TYPES}; a `variable` node has
 * `attrs.key` (checked against the catalogue by {@link templateContentIssues}); `heading.attrs.level`
 * 1–3; `attrs.textAlign` left | center | right | justify.
 */
export interface TemplateNode {
  type: (typeof TEMPLATE_NODE_TYPES)[number];
  attrs?: Record<string, unknown>;
  content?: TemplateNode[];
  marks?: { type: (typeof TEMPLATE_MARK_TYPES)[number]; attrs?: Record<string, unknown> }[];
  text?: string;
}
export const templateNodeSchema: z.ZodType<TemplateNode> = z.lazy(() =>
  z.strictObject({
    type: z.enum(TEMPLATE_NODE_TYPES, { error: CONTRACT_TEMPLATE_MESSAGES.contentInvalid }),
    attrs: z.record(z.string(), z.unknown()).optional(),
    content: z.array(templateNodeSchema).optional(),
    marks: z
      .array(
        z.strictObject({
          type: z.enum(TEMPLATE_MARK_TYPES, { error: CONTRACT_TEMPLATE_MESSAGES.contentInvalid }),
          attrs: z.record(z.string(), z.unknown()).optional(),
        }),
      )
      .optional(),
    text: z.string().max(TEMPLATE_LIMITS.maxTextLength).optional(),
  }),
);
/** The document: a `doc` node. */
export const templateDocSchema = templateNodeSchema.refine((node) => node.type === 'doc', {
  message: CONTRACT_TEMPLATE_MESSAGES.contentInvalid,
});
export type TemplateDoc = TemplateNode;

/**
 * The problems of a document for a kind, as Spanish messages (empty = valid): too many nodes or too
 * deep, a variable without a key, a key not in the catalogue, a key not for this kind.
 */
export function templateContentIssues(doc: TemplateNode, kind: ContractKind): string[] {
  const issues = new Set<string>();
  let nodes = 0;
  const walk = (node: TemplateNode, depth: number) => {
    nodes += 1;
    if (nodes > TEMPLATE_LIMITS.maxNodes || depth > TEMPLATE_LIMITS.maxDepth) {
      issues.add(CONTRACT_TEMPLATE_MESSAGES.tooLarge);
      return;
    }
    if (node.type === 'variable') {
      const key = typeof node.attrs?.key === 'string' ? node.attrs.key : '';
      if (!CONTRACT_VARIABLES_BY_KEY.has(key)) issues.add(CONTRACT_TEMPLATE_MESSAGES.unknownVariable(key));
      else if (!variableAllowedIn(key, kind)) issues.add(CONTRACT_TEMPLATE_MESSAGES.variableNotForKind(key));
    }
    for (const child of node.content ?? []) {
      if (issues.has(CONTRACT_TEMPLATE_MESSAGES.tooLarge)) return;
      walk(child, depth + 1);
    }
  };
  walk(doc, 0);
  return [...issues];
}

const name = z.string({ error: CONTRACT_TEMPLATE_MESSAGES.nameRequired }).trim().min(1, CONTRACT_TEMPLATE_MESSAGES.nameRequired).max(150);

/** POST /api/contract-templates: a new family's first version (BORRADOR, version_number 1). */
export const createContractTemplateRequestSchema = z.strictObject({
  subdivision_id: z.number({ error: CONTRACT_TEMPLATE_MESSAGES.subdivisionRequired }).int().positive(),
  kind: contractKindSchema,
  name,
  content: templateDocSchema,
});
export type CreateContractTemplateRequest = z.input<typeof createContractTemplateRequestSchema>;

/** PATCH /api/contract-templates/{id}: a BORRADOR's name and/or content, with the version read (409 when stale; 409 on a PUBLICADA). */
export const updateContractTemplateRequestSchema = z
  .strictObject({ version: recordVersionSchema, name: name.optional(), content: templateDocSchema.optional() })
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options);
export type UpdateContractTemplateRequest = z.input<typeof updateContractTemplateRequestSchema>;

/**
 * POST /api/contract-templates/{id}/publish (BORRADOR → PUBLICADA, read-only from then) and
 * POST /api/contract-templates/{id}/new-version (a BORRADOR copy numbered version_number + 1; 409
 * when the family already has a BORRADOR): the version read.
 */
export const templateVersionActionRequestSchema = z.strictObject({ version: recordVersionSchema });
export type TemplateVersionActionRequest = z.input<typeof templateVersionActionRequestSchema>;

/** GET /api/contract-templates query: filters by subdivision, kind and state; `latest=true` keeps the last version of each family. */
export const contractTemplatesQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['name', 'updated_at', 'kind']),
  subdivision_id: z.coerce.number({ error: 'Lotización no válida' }).int().positive('Lotización no válida').optional(),
  kind: contractKindSchema.optional(),
  state: templateStateSchema.optional(),
  latest: z.enum(['true', 'false']).optional(),
});
export type ContractTemplatesQuery = z.infer<typeof contractTemplatesQuerySchema>;

/**
 * A template version as the routes answer it. `version_number`: 1, 2… within the family
 * (subdivision, kind); `version`: the record version for optimistic edits. The list answers it
 * without `content` (null) to keep pages small; GET one carries it.
 */
export const contractTemplateSchema = z.object({
  id: z.number().int(),
  subdivision: z.object({ id: z.number().int(), name: z.string() }),
  kind: z.string(),
  name: z.string(),
  state: z.string(),
  version_number: z.number().int(),
  content: z.unknown().nullable().default(null),
  published_at: z.string().nullable().default(null),
  published_by: z.object({ id: z.number().int(), name: z.string() }).nullable().catch(null).default(null),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
  version: versionInAnswerSchema,
});
export type ContractTemplate = z.infer<typeof contractTemplateSchema>;
export const contractTemplatesPageSchema = pagedResponseSchema(contractTemplateSchema);

/**
 * The value of one variable for one contract, as the server resolves it (docs/domain.md "Contract
 * variables") and the renderers (preview and PDF) print it: every kind carries its display `text`
 * (es-PE: money "S/ 48,000.00" / "US$ 12,500.00", dates dd/mm/yyyy, numbers with two decimals where
 * the unit has them) so the renderers never format. TABLE and LIST render as blocks. `null` in
 * {@link ContractValues} = missing data the user must supply before issue (never printed blank).
 */
export type VariableValue =
  | { type: 'TEXT'; text: string }
  | { type: 'NUMBER'; value: number; text: string }
  | { type: 'DATE'; date: string; text: string }
  | { type: 'MONEY'; cents: number; currency: 'PEN' | 'USD'; text: string }
  | { type: 'TABLE'; head: string[]; rows: string[][]; foot?: string[]; text: string }
  | { type: 'LIST'; items: string[]; text: string };
/** Values by catalogue key; a key absent or null is missing. */
export type ContractValues = Record<string, VariableValue | null>;

const valueText = z.string();
/** Tolerant reader of a {@link VariableValue} in answers (a preview's values). */
export const variableValueSchema = z.union([
  z.object({ type: z.literal('TEXT'), text: valueText }),
  z.object({ type: z.literal('NUMBER'), value: z.number(), text: valueText }),
  z.object({ type: z.literal('DATE'), date: z.string(), text: valueText }),
  z.object({ type: z.literal('MONEY'), cents: z.number().int(), currency: z.enum(['PEN', 'USD']), text: valueText }),
  z.object({
    type: z.literal('TABLE'),
    head: z.array(z.string()),
    rows: z.array(z.array(z.string())),
    foot: z.array(z.string()).optional(),
    text: valueText,
  }),
  z.object({ type: z.literal('LIST'), items: z.array(z.string()), text: valueText }),
]);
