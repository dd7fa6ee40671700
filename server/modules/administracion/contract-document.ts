import {
  CONTRACT_VARIABLES_BY_KEY,
  type ContractValues,
  type TemplateNode,
  type VariableValue,
} from '../../../src/schemas/administracion/contract-templates';

/**
 * A contract's resolved document (docs/domain.md "Contracts"): the template's Tiptap JSON document
 * with every `variable` node replaced by its value — TEXT, NUMBER, DATE and MONEY by a text node
 * carrying the variable's marks and the value's display text; TABLE by a `table` node (header row,
 * rows, a bold foot row); LIST by a `bulletList`. A TABLE or LIST inside a paragraph or heading
 * splits it: the text before, the block, the text after. A variable without a value is left in
 * place and reported as missing (the preview shows it; issue refuses it: never printed blank).
 */

/** A key the document uses whose value is missing, with its catalogue label. */
export interface MissingValue {
  key: string;
  label: string;
}

/** Text blocks: their inline children may be split by a block-valued variable. */
const TEXT_BLOCKS = new Set<TemplateNode['type']>(['paragraph', 'heading']);

/**
 * The value of `key` for a contract: a non-empty override (the user's text) wins and is a TEXT;
 * else the resolved value; null when neither.
 */
export function effectiveValue(key: string, values: ContractValues, overrides: Readonly<Record<string, string>>): VariableValue | null {
  const override = overrides[key];
  if (typeof override === 'string' && override.trim() !== '') return { type: 'TEXT', text: override.trim() };
  return values[key] ?? null;
}

/** The values with the overrides applied, for every key of `keys` (null where missing). */
export function effectiveValues(
  keys: Iterable<string>,
  values: ContractValues,
  overrides: Readonly<Record<string, string>>,
): ContractValues {
  const out: ContractValues = {};
  for (const key of keys) out[key] = effectiveValue(key, values, overrides);
  return out;
}

/** Every variable key of a document, in order of first appearance. */
export function documentVariableKeys(doc: TemplateNode): string[] {
  const keys: string[] = [];
  const seen = new Set<string>();
  const walk = (node: TemplateNode) => {
    if (node.type === 'variable') {
      const key = typeof node.attrs?.key === 'string' ? node.attrs.key : '';
      if (!seen.has(key)) {
        seen.add(key);
        keys.push(key);
      }
    }
    for (const child of node.content ?? []) walk(child);
  };
  walk(doc);
  return keys;
}

const paragraph = (text: string, bold = false): TemplateNode => ({
  type: 'paragraph',
  content: text === '' ? [] : [{ type: 'text', text, ...(bold ? { marks: [{ type: 'bold' as const }] } : {}) }],
});

/** A TABLE value as a Tiptap table node (head as tableHeader cells, foot in bold). */
function tableNode(value: Extract<VariableValue, { type: 'TABLE' }>): TemplateNode {
  const row = (cells: readonly string[], cellType: 'tableHeader' | 'tableCell', bold = false): TemplateNode => ({
    type: 'tableRow',
    content: cells.map((text) => ({ type: cellType, content: [paragraph(text, bold)] })),
  });
  return {
    type: 'table',
    content: [
      ...(value.head.length > 0 ? [row(value.head, 'tableHeader')] : []),
      ...value.rows.map((cells) => row(cells, 'tableCell')),
      ...(value.foot ? [row(value.foot, 'tableCell', true)] : []),
    ],
  };
}

/** A LIST value as a bullet list. */
function listNode(value: Extract<VariableValue, { type: 'LIST' }>): TemplateNode {
  return { type: 'bulletList', content: value.items.map((item) => ({ type: 'listItem', content: [paragraph(item)] })) };
}

/**
 * Resolves `doc` with `values` and the user's `overrides` (key → text).
 * @returns the resolved document (a new tree; `doc` is not changed) and the missing keys in order
 *   of first appearance, each once.
 */
export function resolveDocument(
  doc: TemplateNode,
  values: ContractValues,
  overrides: Readonly<Record<string, string>> = {},
): { doc: TemplateNode; missing: MissingValue[] } {
  const missing = new Map<string, MissingValue>();
  const valueOf = (node: TemplateNode): VariableValue | null => {
    const key = typeof node.attrs?.key === 'string' ? node.attrs.key : '';
    const value = effectiveValue(key, values, overrides);
    if (value === null && !missing.has(key)) missing.set(key, { key, label: CONTRACT_VARIABLES_BY_KEY.get(key)?.label ?? key });
    return value;
  };
  /** The nodes `node` becomes (one, or several when a text block is split by a block value). */
  const walk = (node: TemplateNode): TemplateNode[] => {
    if (node.type === 'variable') {
      const value = valueOf(node);
      if (value === null) return [node];
      if (value.type === 'TABLE') return [tableNode(value)];
      if (value.type === 'LIST') return [listNode(value)];
      return value.text === '' ? [] : [{ type: 'text', text: value.text, ...(node.marks ? { marks: node.marks } : {}) }];
    }
    if (!node.content) return [node];
    if (TEXT_BLOCKS.has(node.type)) {
      const out: TemplateNode[] = [];
      let inline: TemplateNode[] = [];
      const flush = (force: boolean) => {
        if (inline.length > 0 || force) out.push({ ...node, content: inline });
        inline = [];
      };
      for (const child of node.content) {
        for (const part of walk(child)) {
          if (part.type === 'table' || part.type === 'bulletList') {
            flush(false);
            out.push(part);
          } else inline.push(part);
        }
      }
      flush(out.length === 0);
      return out;
    }
    return [{ ...node, content: node.content.flatMap(walk) }];
  };
  const [resolved] = walk(doc);
  return { doc: resolved ?? { type: 'doc', content: [] }, missing: [...missing.values()] };
}
