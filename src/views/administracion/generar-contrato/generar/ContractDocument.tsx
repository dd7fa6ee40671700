import type { CSSProperties, ReactNode } from 'react';
import type { TemplateNode } from '../../../../schemas/administracion/contract-templates';

/**
 * The resolved contract document (GET contracts/{id}/preview `doc`) drawn read-only on white A4
 * pages, one page per `pageBreak` (docs/decisions.md "Contract generation screen"). A small
 * JSON → React renderer of the template's node types only (src/schemas/administracion/contract-templates.ts
 * TEMPLATE_NODE_TYPES): text goes through React as text, never as HTML; an unknown node draws its
 * children only. A `variable` left in the document (a missing value) shows as a marked gap with
 * its label ("Falta: …"), so the preview never looks complete while it is not.
 */
export function ContractDocument({ doc, labels }: { doc: unknown; labels: Record<string, string> }) {
  const root = isNode(doc) ? doc : { type: 'doc' as const, content: [] };
  const pages: TemplateNode[][] = [[]];
  for (const node of root.content ?? []) {
    if (node.type === 'pageBreak') pages.push([]);
    else pages[pages.length - 1]!.push(node);
  }
  return (
    <div className="contract-pages" aria-label="Vista previa del contrato">
      {pages.map((nodes, i) => (
        <article key={i} className="contract-page" aria-label={`Página ${i + 1} de ${pages.length}`}>
          {nodes.map((node, j) => renderNode(node, `${i}-${j}`, labels))}
        </article>
      ))}
    </div>
  );
}

function isNode(value: unknown): value is TemplateNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

const ALIGNS = new Set(['left', 'center', 'right', 'justify']);

function alignStyle(node: TemplateNode): CSSProperties | undefined {
  const align = node.attrs?.textAlign;
  return typeof align === 'string' && ALIGNS.has(align) ? { textAlign: align as CSSProperties['textAlign'] } : undefined;
}

function children(node: TemplateNode, key: string, labels: Record<string, string>): ReactNode[] {
  return (node.content ?? []).filter(isNode).map((child, i) => renderNode(child, `${key}.${i}`, labels));
}

function renderText(node: TemplateNode, key: string): ReactNode {
  let out: ReactNode = node.text ?? '';
  for (const mark of node.marks ?? []) {
    if (mark.type === 'bold') out = <strong>{out}</strong>;
    else if (mark.type === 'italic') out = <em>{out}</em>;
    else if (mark.type === 'underline') out = <u>{out}</u>;
  }
  return <span key={key}>{out}</span>;
}

function renderNode(node: TemplateNode, key: string, labels: Record<string, string>): ReactNode {
  switch (node.type) {
    case 'text':
      return renderText(node, key);
    case 'paragraph':
      return (
        <p key={key} style={alignStyle(node)}>
          {children(node, key, labels)}
        </p>
      );
    case 'heading': {
      const level = node.attrs?.level === 1 ? 1 : node.attrs?.level === 3 ? 3 : 2;
      const Tag = (['h2', 'h3', 'h4'] as const)[level - 1]!;
      return (
        <Tag key={key} className="contract-heading" style={alignStyle(node)}>
          {children(node, key, labels)}
        </Tag>
      );
    }
    case 'hardBreak':
      return <br key={key} />;
    case 'horizontalRule':
      return <hr key={key} />;
    case 'orderedList':
      return <ol key={key}>{children(node, key, labels)}</ol>;
    case 'bulletList':
      return <ul key={key}>{children(node, key, labels)}</ul>;
    case 'listItem':
      return <li key={key}>{children(node, key, labels)}</li>;
    case 'table':
      return (
        <table key={key} className="contract-table">
          <tbody>{children(node, key, labels)}</tbody>
        </table>
      );
    case 'tableRow':
      return <tr key={key}>{children(node, key, labels)}</tr>;
    case 'tableHeader':
      return <th key={key}>{children(node, key, labels)}</th>;
    case 'tableCell':
      return <td key={key}>{children(node, key, labels)}</td>;
    case 'variable': {
      const variableKey = typeof node.attrs?.key === 'string' ? node.attrs.key : '';
      return (
        <mark key={key} className="contract-missing">
          Falta: {labels[variableKey] ?? variableKey}
        </mark>
      );
    }
    case 'pageBreak':
      return null;
    default:
      return <span key={key}>{children(node, key, labels)}</span>;
  }
}
