import { Button, ButtonGroup, Menu, MenuDivider, MenuItem, Popover, type IconName } from '@blueprintjs/core';
import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import { groupedSuggestions, variableSuggestions } from '../../../../machines/administracion/variable-suggestion.machine';
import type { ContractKind } from '../../../../schemas/administracion/contract-templates';

type Alignment = 'left' | 'center' | 'right' | 'justify';

const BLOCK_STYLES = [
  { id: 'paragraph', text: 'Párrafo', icon: 'paragraph' },
  { id: 'h1', text: 'Título 1', icon: 'header-one' },
  { id: 'h2', text: 'Título 2', icon: 'header-two' },
  { id: 'h3', text: 'Título 3', icon: 'header-three' },
] as const satisfies readonly { id: string; text: string; icon: IconName }[];
type BlockStyle = (typeof BLOCK_STYLES)[number]['id'];

const ALIGNMENTS: readonly { id: Alignment; label: string; icon: IconName }[] = [
  { id: 'left', label: 'Alinear a la izquierda', icon: 'align-left' },
  { id: 'center', label: 'Centrar', icon: 'align-center' },
  { id: 'right', label: 'Alinear a la derecha', icon: 'align-right' },
  { id: 'justify', label: 'Justificar', icon: 'align-justify' },
];

/** What the toolbar shows of the selection (read through useEditorState, so it follows every change). */
function toolbarState(editor: Editor) {
  const block: BlockStyle = editor.isActive('heading', { level: 1 })
    ? 'h1'
    : editor.isActive('heading', { level: 2 })
      ? 'h2'
      : editor.isActive('heading', { level: 3 })
        ? 'h3'
        : 'paragraph';
  const align = (ALIGNMENTS.find((a) => editor.isActive({ textAlign: a.id }))?.id ?? 'left') as Alignment;
  return {
    block,
    align,
    bold: editor.isActive('bold'),
    italic: editor.isActive('italic'),
    underline: editor.isActive('underline'),
    orderedList: editor.isActive('orderedList'),
    bulletList: editor.isActive('bulletList'),
    inTable: editor.isActive('table'),
  };
}

/**
 * The template editor's toolbar, made of Blueprint buttons, button groups, popovers and menus:
 * paragraph style (Párrafo, Título 1–3), bold / italic / underline, numbered clauses and bullets,
 * alignment, tables (insert 3 × 3, add or delete a row or a column, delete the table), page break,
 * and "Insertar variable" (the catalogue of the kind, by group, for pointer users). Every button
 * carries a Spanish name; toggles say their state with aria-pressed. Its commands act on the
 * document (ProseMirror state, reported to the editor's machine by the editor's `onUpdate`).
 */
export function TemplateToolbar({ editor, kind }: { editor: Editor; kind: ContractKind }) {
  const state = useEditorState({ editor, selector: ({ editor: e }) => toolbarState(e) });
  const chain = () => editor.chain().focus();
  const current = BLOCK_STYLES.find((s) => s.id === state.block) ?? BLOCK_STYLES[0];
  const toggle = (label: string, icon: IconName, pressed: boolean, run: () => void) => (
    <Button aria-label={label} title={label} icon={icon} aria-pressed={pressed} active={pressed} onClick={run} />
  );
  return (
    <div className="template-toolbar" role="toolbar" aria-label="Formato del documento">
      <Popover
        placement="bottom-start"
        content={
          <Menu aria-label="Estilo de párrafo">
            {BLOCK_STYLES.map((style) => (
              <MenuItem
                key={style.id}
                icon={style.icon}
                text={style.text}
                active={style.id === state.block}
                onClick={() =>
                  style.id === 'paragraph'
                    ? chain().setParagraph().run()
                    : chain()
                        .setHeading({ level: Number(style.id.slice(1)) as 1 | 2 | 3 })
                        .run()
                }
              />
            ))}
          </Menu>
        }
      >
        <Button
          className="template-toolbar-style"
          text={current.text}
          endIcon="caret-down"
          aria-label={`Estilo de párrafo: ${current.text}`}
        />
      </Popover>
      <ButtonGroup aria-label="Énfasis" role="group">
        {toggle('Negrita', 'bold', state.bold, () => chain().toggleBold().run())}
        {toggle('Cursiva', 'italic', state.italic, () => chain().toggleItalic().run())}
        {toggle('Subrayado', 'underline', state.underline, () => chain().toggleUnderline().run())}
      </ButtonGroup>
      <ButtonGroup aria-label="Listas" role="group">
        {toggle('Cláusulas numeradas', 'numbered-list', state.orderedList, () => chain().toggleOrderedList().run())}
        {toggle('Lista con viñetas', 'properties', state.bulletList, () => chain().toggleBulletList().run())}
      </ButtonGroup>
      <ButtonGroup aria-label="Alineación" role="group">
        {ALIGNMENTS.map((a) => (
          <Button
            key={a.id}
            aria-label={a.label}
            title={a.label}
            icon={a.icon}
            aria-pressed={state.align === a.id}
            active={state.align === a.id}
            onClick={() => chain().setTextAlign(a.id).run()}
          />
        ))}
      </ButtonGroup>
      <Popover
        placement="bottom-start"
        content={
          <Menu aria-label="Tabla">
            <MenuItem
              icon="th"
              text="Insertar tabla 3 × 3"
              onClick={() => chain().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run()}
            />
            <MenuDivider />
            <MenuItem
              icon="add-row-bottom"
              text="Agregar fila debajo"
              disabled={!state.inTable}
              onClick={() => chain().addRowAfter().run()}
            />
            <MenuItem icon="remove-row-bottom" text="Eliminar fila" disabled={!state.inTable} onClick={() => chain().deleteRow().run()} />
            <MenuItem
              icon="add-column-right"
              text="Agregar columna a la derecha"
              disabled={!state.inTable}
              onClick={() => chain().addColumnAfter().run()}
            />
            <MenuItem
              icon="remove-column-right"
              text="Eliminar columna"
              disabled={!state.inTable}
              onClick={() => chain().deleteColumn().run()}
            />
            <MenuDivider />
            <MenuItem
              icon="trash"
              intent="danger"
              text="Eliminar tabla"
              disabled={!state.inTable}
              onClick={() => chain().deleteTable().run()}
            />
          </Menu>
        }
      >
        <Button icon="th" text="Tabla" endIcon="caret-down" aria-label="Tabla" />
      </Popover>
      <Button icon="page-layout" text="Salto de página" onClick={() => chain().setPageBreak().run()} />
      <Popover
        placement="bottom-start"
        content={
          <Menu aria-label="Variables">
            {groupedSuggestions(variableSuggestions('', kind)).map((group) => (
              <MenuItem key={group.group} text={group.label} icon="variable">
                {group.items.map((item) => (
                  <MenuItem key={item.key} text={item.label} label={item.key} onClick={() => editor.commands.insertVariable(item.key)} />
                ))}
              </MenuItem>
            ))}
          </Menu>
        }
      >
        <Button icon="variable" text="Insertar variable" endIcon="caret-down" />
      </Popover>
    </div>
  );
}
