import { useEffect, useMemo, useRef } from 'react';
import { useActorRef } from '@xstate/react';
import { EditorContent, useEditor } from '@tiptap/react';
import type { SuggestionKeyDownProps, SuggestionProps } from '@tiptap/suggestion';
import { variableSuggestionMachine } from '../../../../machines/administracion/variable-suggestion.machine';
import type { ContractKind, ContractVariable, TemplateDoc } from '../../../../schemas/administracion/contract-templates';
import { templateExtensions, type VariableSuggestionRenderer } from './template-extensions';
import { toTemplateDoc } from './template-json';
import { TemplateToolbar } from './TemplateToolbar';
import { SUGGESTION_LISTBOX_ID, VariableSuggestionMenu, suggestionOptionId } from './VariableSuggestionMenu';
import '../../../../styles/contract-templates.css';

/** The document's accessible name. */
export const DOCUMENT_LABEL = 'Contenido de la plantilla';

type Props = SuggestionProps<ContractVariable, ContractVariable>;

/**
 * The rich-text editor of a contract template (Tiptap 3 over ProseMirror; docs/decisions.md
 * "Contract template editor"): the toolbar, the document and the "@" menu of variables. The
 * document starts from `content` and starts again only when `docKey` changes (a version read from
 * the server); every change is reported with `onChange` as the template document JSON (see
 * template-json.ts), which the editor's machine keeps. Read-only (a PUBLICADA version): no toolbar,
 * nothing editable.
 */
export function TemplateRichTextEditor({
  docKey,
  content,
  kind,
  readOnly,
  onChange,
  describedBy,
  invalid,
}: {
  docKey: number;
  content: TemplateDoc;
  kind: ContractKind;
  readOnly: boolean;
  onChange: (content: TemplateDoc) => void;
  /** Id of the content's error messages, when shown. */
  describedBy?: string;
  invalid?: boolean;
}) {
  const suggestion = useActorRef(variableSuggestionMachine);
  // The suggestion plugin's latest props: its `command` inserts the chosen entry over the "@…" text.
  const latest = useRef<Props | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  const renderer = useMemo(
    () => (): VariableSuggestionRenderer => {
      const show = (props: Props) => {
        latest.current = props;
        const rect = props.clientRect?.();
        suggestion.send({
          type: 'suggest.show',
          query: props.query,
          items: props.items,
          anchor: rect ? { left: rect.left, top: rect.bottom + 4 } : null,
        });
        const dom = props.editor.view.dom;
        dom.setAttribute('aria-controls', SUGGESTION_LISTBOX_ID);
        dom.setAttribute('aria-expanded', 'true');
        dom.setAttribute('aria-activedescendant', suggestionOptionId(suggestion.getSnapshot().context.index));
      };
      return {
        onStart: show,
        onUpdate: show,
        onExit: () => {
          const dom = latest.current?.editor.view.dom;
          dom?.removeAttribute('aria-controls');
          dom?.removeAttribute('aria-activedescendant');
          dom?.setAttribute('aria-expanded', 'false');
          latest.current = null;
          suggestion.send({ type: 'suggest.hide' });
        },
        onKeyDown: ({ event }: SuggestionKeyDownProps) => {
          const { context } = suggestion.getSnapshot();
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            suggestion.send({ type: 'suggest.move', delta: event.key === 'ArrowDown' ? 1 : -1 });
            latest.current?.editor.view.dom.setAttribute(
              'aria-activedescendant',
              suggestionOptionId(suggestion.getSnapshot().context.index),
            );
            return true;
          }
          if (event.key === 'Enter' || event.key === 'Tab') {
            const item = context.items[context.index];
            if (!item || !latest.current) return false;
            latest.current.command(item);
            return true;
          }
          if (event.key === 'Escape') {
            suggestion.send({ type: 'suggest.hide' });
            return true;
          }
          return false;
        },
      };
    },
    [suggestion],
  );

  const editor = useEditor(
    {
      extensions: templateExtensions({ kind, renderer }),
      content,
      editable: !readOnly,
      editorProps: {
        attributes: {
          'aria-label': DOCUMENT_LABEL,
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-readonly': String(readOnly),
          'aria-autocomplete': 'list',
          'aria-expanded': 'false',
          class: 'template-document',
          spellcheck: 'true',
          lang: 'es',
        },
      },
      onUpdate: ({ editor: e }) => changed.current(toTemplateDoc(e.getJSON())),
    },
    // A new version read, another kind (its catalogue) or read-only: the editor starts again.
    [docKey, kind, readOnly],
  );
  // The content's error messages name the document (no new editor for that: the caret stays).
  useEffect(() => {
    const dom = editor.view.dom;
    if (describedBy) dom.setAttribute('aria-describedby', describedBy);
    else dom.removeAttribute('aria-describedby');
    if (invalid) dom.setAttribute('aria-invalid', 'true');
    else dom.removeAttribute('aria-invalid');
  }, [editor, describedBy, invalid]);

  return (
    <div className={`template-editor${readOnly ? ' template-editor-readonly' : ''}`}>
      {readOnly ? null : <TemplateToolbar editor={editor} kind={kind} />}
      <div className="template-page">
        <EditorContent editor={editor} />
      </div>
      <VariableSuggestionMenu
        actor={suggestion}
        onChoose={(index) => {
          const item = suggestion.getSnapshot().context.items[index];
          if (item && latest.current) latest.current.command(item);
        }}
      />
    </div>
  );
}
