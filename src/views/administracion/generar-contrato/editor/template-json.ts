import type { JSONContent } from '@tiptap/core';
import type { TemplateDoc, TemplateNode } from '../../../../schemas/administracion/contract-templates';

/** Attributes without the unset ones (null/undefined), or undefined when none is left. */
function setAttrs(attrs: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!attrs) return undefined;
  const kept = Object.entries(attrs).filter(([, value]) => value !== null && value !== undefined);
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/**
 * The editor's JSON (Tiptap's `getJSON()`) as the template document the api stores: the same tree
 * with the attributes Tiptap writes as `null` (an unset alignment, a table cell's `colwidth`, an
 * ordered list's `type`) left out, and only `type`, `attrs`, `content`, `marks` and `text` kept,
 * so it validates against `templateDocSchema` (a strict object per node).
 */
export function toTemplateDoc(json: JSONContent): TemplateDoc {
  const node = (input: JSONContent): TemplateNode => {
    // The editor's extensions are the template node set; a type outside it reaches the api, which answers 422.
    const out: TemplateNode = { type: input.type as TemplateNode['type'] };
    const attrs = setAttrs(input.attrs);
    if (attrs) out.attrs = attrs;
    if (input.content && input.content.length > 0) out.content = input.content.map(node);
    if (input.marks && input.marks.length > 0)
      out.marks = input.marks.map((mark) => {
        const markAttrs = setAttrs(mark.attrs);
        const type = mark.type as NonNullable<TemplateNode['marks']>[number]['type'];
        return markAttrs ? { type, attrs: markAttrs } : { type };
      });
    if (typeof input.text === 'string') out.text = input.text;
    return out;
  };
  return node(json);
}
