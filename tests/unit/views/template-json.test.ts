// @vitest-environment jsdom
/**
 * The template editor's JSON (docs/decisions.md "Contract template editor"): a document built with
 * every toolbar command — headings, marks, numbered clauses, bullets, a table, alignment, a page
 * break and variables — validates against templateDocSchema, uses only the schema's node and mark
 * types, and loads back into the editor unchanged.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Editor } from '@tiptap/core';
import { templateExtensions } from '../../../src/views/administracion/generar-contrato/editor/template-extensions';
import { toTemplateDoc } from '../../../src/views/administracion/generar-contrato/editor/template-json';
import {
  TEMPLATE_MARK_TYPES,
  TEMPLATE_NODE_TYPES,
  templateContentIssues,
  templateDocSchema,
  type TemplateNode,
} from '../../../src/schemas/administracion/contract-templates';

const editors: Editor[] = [];
afterEach(() => editors.splice(0).forEach((e) => e.destroy()));

const make = (content?: object | string) => {
  const editor = new Editor({ extensions: templateExtensions({ kind: 'COMPRAVENTA_PLAZOS', renderer: null }), content });
  editors.push(editor);
  return editor;
};

function types(node: TemplateNode, nodes = new Set<string>(), marks = new Set<string>()) {
  nodes.add(node.type);
  for (const mark of node.marks ?? []) marks.add(mark.type);
  for (const child of node.content ?? []) types(child, nodes, marks);
  return { nodes, marks };
}

describe('template editor JSON', () => {
  it('round-trips the template document schema', () => {
    const editor = make('<p></p>');
    editor.commands.setHeading({ level: 1 });
    editor.commands.insertContent('CONTRATO');
    editor.commands.setTextAlign('center');
    editor.commands.insertContentAt(editor.state.doc.content.size, '<p><strong>Primera:</strong> <em>cursiva</em> <u>subrayado</u> </p>');
    editor.commands.focus('end');
    editor.commands.insertVariable('venta.precio');
    editor.commands.setTextAlign('justify');
    editor.commands.insertContentAt(
      editor.state.doc.content.size,
      '<ol><li><p>Cláusula</p></li></ol><ul><li><p>Viñeta</p></li></ul><p></p>',
    );
    editor.commands.focus('end');
    editor.commands.insertTable({ rows: 3, cols: 3, withHeaderRow: true });
    editor.commands.addRowAfter();
    editor.commands.addColumnAfter();
    editor.commands.focus('end');
    editor.commands.setPageBreak();

    const doc = toTemplateDoc(editor.getJSON());
    const parsed = templateDocSchema.safeParse(doc);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(templateContentIssues(doc, 'COMPRAVENTA_PLAZOS')).toEqual([]);
    const { nodes, marks } = types(doc);
    for (const type of nodes) expect(TEMPLATE_NODE_TYPES).toContain(type);
    for (const type of marks) expect(TEMPLATE_MARK_TYPES).toContain(type);
    expect([...nodes]).toEqual(
      expect.arrayContaining(['heading', 'orderedList', 'bulletList', 'table', 'tableHeader', 'tableCell', 'variable', 'pageBreak']),
    );
    expect([...marks].sort()).toEqual(['bold', 'italic', 'underline']);
    expect(JSON.stringify(doc)).not.toContain('null');

    const again = toTemplateDoc(make(doc).getJSON());
    expect(again).toEqual(doc);
  });

  it('drops what the schema lacks (strike, code, links, blockquotes) when HTML is pasted', () => {
    const editor = make(
      '<blockquote><p><s>tachado</s> <code>x</code> <a href="https://x.test">enlace</a></p></blockquote><pre><code>y</code></pre>',
    );
    const doc = toTemplateDoc(editor.getJSON());
    expect(templateDocSchema.safeParse(doc).success).toBe(true);
    const { nodes, marks } = types(doc);
    expect([...nodes].every((t) => (TEMPLATE_NODE_TYPES as readonly string[]).includes(t))).toBe(true);
    expect(marks.size).toBe(0);
  });
});
