import { Node, mergeAttributes, type Editor, type Range } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { TableKit } from '@tiptap/extension-table';
import TextAlign from '@tiptap/extension-text-align';
import Suggestion, { type SuggestionProps, type SuggestionKeyDownProps } from '@tiptap/suggestion';
import { PluginKey } from '@tiptap/pm/state';
import { CONTRACT_VARIABLES_BY_KEY, type ContractKind, type ContractVariable } from '../../../../schemas/administracion/contract-templates';
import { variableSuggestions } from '../../../../machines/administracion/variable-suggestion.machine';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    pageBreak: {
      /** Inserts a page break (a `pageBreak` block) at the selection. */
      setPageBreak: () => ReturnType;
    };
    variable: {
      /** Inserts the variable `key` (an atomic `variable` chip) at the selection, or over `range`. */
      insertVariable: (key: string, range?: Range) => ReturnType;
    };
  }
}

/** The Spanish label of a catalogue key (the key itself when the catalogue does not know it). */
export function variableLabel(key: string): string {
  return CONTRACT_VARIABLES_BY_KEY.get(key)?.label ?? key;
}

/** What the "@" plugin tells the menu, and asks it on each key. */
export interface VariableSuggestionRenderer {
  onStart: (props: SuggestionProps<ContractVariable, ContractVariable>) => void;
  onUpdate: (props: SuggestionProps<ContractVariable, ContractVariable>) => void;
  onExit: () => void;
  onKeyDown: (props: SuggestionKeyDownProps) => boolean;
}

interface VariableOptions {
  /** The template's kind: the "@" menu lists only the catalogue entries for it. */
  kind: ContractKind;
  /** The "@" menu (variable-suggestion.machine.ts drawn by VariableSuggestionMenu.tsx); none = no menu. */
  renderer: (() => VariableSuggestionRenderer) | null;
}

/**
 * The `variable` node: an inline atom `{type: 'variable', attrs: {key}}` drawn as a chip with the
 * catalogue's Spanish label (never edited character by character: Backspace removes it whole).
 * Typing "@" opens the catalogue filtered by the kind and the typed text (@tiptap/suggestion).
 */
export const VariableNode = Node.create<VariableOptions>({
  name: 'variable',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  draggable: false,

  addOptions() {
    return { kind: 'COMPRAVENTA_CONTADO', renderer: null };
  },

  addAttributes() {
    return {
      key: {
        default: '',
        parseHTML: (element) => element.getAttribute('data-variable') ?? '',
        renderHTML: (attributes) => ({ 'data-variable': String(attributes.key) }),
      },
    };
  },

  parseHTML() {
    return [{ tag: 'span[data-variable]' }];
  },

  renderHTML({ node, HTMLAttributes }) {
    const key = String(node.attrs.key);
    const known = CONTRACT_VARIABLES_BY_KEY.has(key);
    return [
      'span',
      mergeAttributes(HTMLAttributes, {
        class: `template-variable${known ? '' : ' template-variable-unknown'}`,
        contenteditable: 'false',
        title: key,
      }),
      variableLabel(key),
    ];
  },

  renderText({ node }) {
    return `{{${String(node.attrs.key)}}}`;
  },

  addCommands() {
    return {
      insertVariable:
        (key, range) =>
        ({ chain }) =>
          (range
            ? chain().insertContentAt(range, [
                { type: this.name, attrs: { key } },
                { type: 'text', text: ' ' },
              ])
            : chain().insertContent([
                { type: this.name, attrs: { key } },
                { type: 'text', text: ' ' },
              ])
          )
            .focus()
            .run(),
    };
  },

  addProseMirrorPlugins() {
    const renderer = this.options.renderer;
    if (!renderer) return [];
    const kind = this.options.kind;
    return [
      Suggestion<ContractVariable, ContractVariable>({
        editor: this.editor,
        pluginKey: new PluginKey('variableSuggestion'),
        char: '@',
        allowSpaces: false,
        items: ({ query }) => variableSuggestions(query, kind),
        command: ({ editor, range, props }) => {
          (editor as Editor).commands.insertVariable(props.key, range);
        },
        render: renderer,
      }),
    ];
  },
});

/** The `pageBreak` node: a block atom drawn as a dashed line labelled "Salto de página"; the PDF starts a new page there. */
export const PageBreakNode = Node.create({
  name: 'pageBreak',
  group: 'block',
  atom: true,
  selectable: true,

  parseHTML() {
    return [{ tag: 'div[data-page-break]' }];
  },

  renderHTML({ HTMLAttributes }) {
    return [
      'div',
      mergeAttributes(HTMLAttributes, { 'data-page-break': '', class: 'template-page-break', contenteditable: 'false' }),
      ['span', { class: 'template-page-break-label' }, 'Salto de página'],
    ];
  },

  addCommands() {
    return {
      setPageBreak:
        () =>
        ({ commands }) =>
          commands.insertContent({ type: this.name }),
    };
  },
});

/**
 * The editor's extensions: exactly the node and mark types of the template document schema
 * (TEMPLATE_NODE_TYPES, TEMPLATE_MARK_TYPES in src/schemas/administracion/contract-templates.ts):
 * StarterKit without code, code blocks, blockquotes, strike and links; headings 1–3; tables (not
 * resizable); alignment of paragraphs and headings; `variable` and `pageBreak`.
 */
export function templateExtensions(options: VariableOptions) {
  return [
    StarterKit.configure({
      blockquote: false,
      code: false,
      codeBlock: false,
      strike: false,
      link: false,
      heading: { levels: [1, 2, 3] },
    }),
    TableKit.configure({ table: { resizable: false } }),
    TextAlign.configure({ types: ['heading', 'paragraph'], alignments: ['left', 'center', 'right', 'justify'] }),
    VariableNode.configure(options),
    PageBreakNode,
  ];
}
