/** lib/sanitize (docs/product.md §3 notification detail HTML; docs/decisions.md "Detail HTML"): DOMPurify in jsdom. */
import { describe, expect, it } from 'vitest';
import { sanitizeNotificationHtml } from '../../../src/lib/sanitize';

describe('sanitizeNotificationHtml', () => {
  it('keeps the allowed markup', () => {
    expect(sanitizeNotificationHtml('<p>Se registró <b>Mariela</b> <em>hoy</em></p>')).toBe(
      '<p>Se registró <b>Mariela</b> <em>hoy</em></p>',
    );
  });

  it('drops scripts, event handlers and javascript: links', () => {
    const clean = sanitizeNotificationHtml(
      '<p>Hola</p><script>alert(1)</script><img src="x" onerror="alert(2)"><a href="javascript:alert(3)">x</a><div onclick="alert(4)">y</div>',
    );
    expect(clean).not.toMatch(/script|onerror|onclick|javascript:/i);
    expect(clean).toContain('<p>Hola</p>');
  });

  it('drops styles and forms, and makes links that open a new tab safe', () => {
    const clean = sanitizeNotificationHtml('<style>p{}</style><form><input></form><a href="https://example.pe" target="_blank">ver</a>');
    expect(clean).not.toMatch(/<style|<form|<input/);
    expect(clean).toContain('rel="noopener noreferrer"');
  });
});
