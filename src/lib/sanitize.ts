import DOMPurify from 'dompurify';

/**
 * Sanitises the HTML detail of a notification before it is shown (docs/product.md §3 "detail (HTML)";
 * docs/decisions.md "Detail HTML": sanitised on write by the server, and again here). DOMPurify's
 * HTML profile without forms, frames or styles: scripts, event handlers (onerror…) and
 * `javascript:` URLs are removed; a link that opens a new tab gets rel="noopener noreferrer".
 */

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('target')) node.setAttribute('rel', 'noopener noreferrer');
});

/** @returns safe HTML to render with dangerouslySetInnerHTML. */
export function sanitizeNotificationHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
    ADD_ATTR: ['target'],
  });
}
