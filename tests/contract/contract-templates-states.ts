import type { TemplateDoc } from '../../src/schemas/administracion/contract-templates';

/**
 * Provider states and fixed data of Administración → Generar Contrato, tab "Plantillas" (contract
 * templates, docs/domain.md "Contract templates"), shared by
 * tests/contract/consumer/contract-templates.pact.test.ts and the provider verification. Ids are
 * those of an empty database: SUBDIVISION (projects-states.ts) is id 1, the template versions
 * below are ids 1 and 2. Creating a template uses PROJECT_STATES.subdivisionWithLots (STAFF signed
 * in and subdivision 1); a stale edit adds STATES.recordChangedByAnother with entity
 * `contract_templates`.
 */
export const TEMPLATE_STATES = {
  /**
   * STAFF (states.ts) is signed in (param `token`, role Administrador), SUBDIVISION exists (id 1)
   * and template version 1 of its family COMPRAVENTA_CONTADO: name TEMPLATE.name, content
   * TEMPLATE.content, BORRADOR, version_number 1, record version 1.
   */
  draftTemplateExists: 'a signed-in staff user and a draft contract template exist',
  /** As draftTemplateExists, but template 1 is PUBLICADA (published by STAFF), record version 1. */
  publishedTemplateExists: 'a signed-in staff user and a published contract template exist',
  /**
   * As publishedTemplateExists, plus template 2: the same family's BORRADOR, version_number 2
   * (a copy of template 1), record version 1; so a new version of template 1 is refused (409).
   */
  publishedTemplateWithDraftExists: 'a published contract template whose family already has a draft exists',
} as const;

/** The template of TEMPLATE_STATES (family: subdivision 1, COMPRAVENTA_CONTADO). */
export const TEMPLATE = {
  kind: 'COMPRAVENTA_CONTADO',
  name: 'Compraventa al contado — Los Viñedos',
  content: {
    type: 'doc',
    content: [
      { type: 'heading', attrs: { level: 1, textAlign: 'center' }, content: [{ type: 'text', text: 'CONTRATO DE COMPRAVENTA' }] },
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'Conste por el presente documento que ' },
          { type: 'variable', attrs: { key: 'empresa.razon_social' } },
          { type: 'text', text: ' vende a ' },
          { type: 'variable', attrs: { key: 'comprador.nombre' } },
          { type: 'text', text: '.' },
        ],
      },
      { type: 'pageBreak' },
    ],
  } satisfies TemplateDoc,
} as const;
